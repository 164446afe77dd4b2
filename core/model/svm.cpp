#include "core/model/svm.h"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <string_view>
#include <system_error>
#include <utility>

#include "base/log.h"

namespace vmafhip {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/// The blank-separated tokens of one line (at most `max`, plus one more to
/// tell that there were too many).
std::vector<std::string_view> tokens(const char *b, const char *e, size_t max)
{
    std::vector<std::string_view> t;
    while (b != e && t.size() <= max) {
        while (b != e && is_blank(*b))
            b++;
        const char *s = b;
        while (b != e && !is_blank(*b))
            b++;
        if (b != s)
            t.emplace_back(s, static_cast<size_t>(b - s));
    }
    return t;
}

/// Cuts text into lines, counting them for messages.
struct Lines {
    const char *p, *end;
    int number = 0;
    bool next(const char **b, const char **e)
    {
        if (p == end)
            return false;
        number++;
        *b = p;
        while (p != end && *p != '\n')
            p++;
        *e = p;
        if (p != end)
            p++;
        return true;
    }
};

bool parse_count(std::string_view s, long *out)
{
    if (s.empty() || s.size() > 9)
        return false;
    long v = 0;
    for (const char c : s) {
        if (!is_digit(c))
            return false;
        v = v * 10 + (c - '0');
    }
    *out = v;
    return true;
}

bool parse_number(std::string_view s, double *out) { return parse_decimal(s.data(), s.data() + s.size(), out); }

enum Key { SVM_TYPE, KERNEL_TYPE, GAMMA, NR_CLASS, TOTAL_SV, RHO, DEGREE, COEF0, PROB_A, PROB_B, N_KEYS };
const char *const key_names[N_KEYS] = {"svm_type", "kernel_type", "gamma", "nr_class", "total_sv",
                                       "rho", "degree", "coef0", "probA", "probB"};
constexpr int N_REQUIRED = RHO + 1; // the keys before DEGREE

} // namespace

std::string quoted_text(std::string_view s)
{
    constexpr size_t max = 40;
    // Appended, not "\"" + std::string(...): GCC 12 warns falsely on that in C++20 (-Wrestrict).
    std::string q(1, '"');
    q.append(s.substr(0, max)).append(s.size() > max ? "...\"" : "\"");
    return q;
}

bool parse_decimal(const char *b, const char *e, double *out)
{
    const char *p = b;
    if (p != e && (*p == '+' || *p == '-'))
        p++;
    const char *m = p;
    while (p != e && is_digit(*p))
        p++;
    size_t digits = static_cast<size_t>(p - m);
    if (p != e && *p == '.') {
        const char *f = ++p;
        while (p != e && is_digit(*p))
            p++;
        digits += static_cast<size_t>(p - f);
    }
    if (!digits)
        return false;
    if (p != e && (*p == 'e' || *p == 'E')) {
        p++;
        if (p != e && (*p == '+' || *p == '-'))
            p++;
        const char *x = p;
        while (p != e && is_digit(*p))
            p++;
        if (p == x)
            return false;
    }
    if (p != e)
        return false;
    // from_chars: correctly rounded like strtod, but independent of the
    // process locale; it takes no '+'.
    double v;
    const auto r = std::from_chars(*b == '+' ? b + 1 : b, e, v, std::chars_format::general);
    if (r.ec != std::errc() || r.ptr != e || !std::isfinite(v))
        return false;
    *out = v;
    return true;
}

std::string svm_read(const std::string &text, int n_features, size_t *budget, Svm *out)
{
    Svm s;
    s.n_features = n_features;
    Lines lines{text.data(), text.data() + text.size()};
    const char *b, *e;
    bool seen[N_KEYS] = {};
    long total_sv = 0;

    // Header: one "key value" per line up to "SV" (libsvm's svm_load_model).
    for (;;) {
        if (!lines.next(&b, &e))
            return "ends before the \"SV\" line that closes the header";
        const auto t = tokens(b, e, 2);
        const std::string at = strprintf("line %d: ", lines.number);
        if (t.empty())
            return at + "empty line in the header";
        if (t[0] == "SV") {
            if (t.size() > 1)
                return at + "text after \"SV\"";
            break;
        }
        int k = 0;
        while (k < N_KEYS && t[0] != key_names[k])
            k++;
        if (k == N_KEYS)
            return at + "unknown header field " + quoted_text(t[0]) +
                   " (accepted: svm_type, kernel_type, gamma, nr_class, total_sv, rho, degree, "
                   "coef0, probA, probB, then SV)";
        if (seen[k])
            return at + key_names[k] + " given twice";
        seen[k] = true;
        if (t.size() != 2)
            return at + key_names[k] + " needs exactly one value";
        const std::string_view v = t[1];
        double d;
        long n;
        switch (k) {
        case SVM_TYPE:
            if (v != "nu_svr" && v != "epsilon_svr")
                return at + "svm_type " + quoted_text(v) + " is not supported (accepted: nu_svr, epsilon_svr)";
            break;
        case KERNEL_TYPE:
            if (v != "rbf")
                return at + "kernel_type " + quoted_text(v) + " is not supported (accepted: rbf)";
            break;
        case NR_CLASS:
            if (v != "2")
                return at + "nr_class " + quoted_text(v) + " is not supported (a regression model has 2)";
            break;
        case TOTAL_SV:
            if (!parse_count(v, &n) || n < 1)
                return at + "total_sv " + quoted_text(v) + " is not a count from 1 to 999999999";
            total_sv = n;
            break;
        case DEGREE:
            if (!parse_count(v, &n))
                return at + "degree " + quoted_text(v) + " is not a non-negative integer";
            break;
        default: // the numbers
            if (!parse_number(v, &d))
                return at + key_names[k] + " " + quoted_text(v) + " is not a finite decimal number";
            if (k == GAMMA)
                s.gamma = d;
            else if (k == RHO)
                s.rho = d;
            break;
        }
    }
    for (int k = 0; k < N_REQUIRED; k++)
        if (!seen[k])
            return strprintf("the header has no %s (svm_type, kernel_type, gamma, nr_class, total_sv "
                             "and rho are required)", key_names[k]);

    // Support vectors: "coef index:value ..." with indices rising within
    // 1..n_features; an absent index is 0 (docs/model.md §3).
    const size_t row = static_cast<size_t>(n_features);
    for (long j = 0; j < total_sv; j++) {
        if (!lines.next(&b, &e))
            return strprintf("has %ld support vectors, but total_sv is %ld", j, total_sv);
        const std::string at = strprintf("line %d: ", lines.number);
        const auto t = tokens(b, e, row + 1);
        if (t.empty())
            return at + "empty line where a support vector (coefficient index:value ...) was expected";
        if (t.size() > row + 1)
            return at + strprintf("more than the model's %d features", n_features);
        if (*budget < row + 1)
            return at + "too many support vector values for one model file";
        *budget -= row + 1;
        double coef;
        if (!parse_number(t[0], &coef))
            return at + "coefficient " + quoted_text(t[0]) + " is not a finite decimal number";
        s.coef.push_back(coef);
        s.sv.resize(s.sv.size() + row, 0.0);
        double *values = &s.sv[s.sv.size() - row];
        long last = 0;
        for (size_t i = 1; i < t.size(); i++) {
            const size_t colon = t[i].find(':');
            long index;
            if (colon == std::string_view::npos || !parse_count(t[i].substr(0, colon), &index))
                return at + quoted_text(t[i]) + " is not index:value";
            if (index < 1 || index > n_features)
                return at + strprintf("index %ld is outside 1..%d (the model's features)", index,
                                      n_features);
            if (index <= last)
                return at + strprintf("index %ld after index %ld (indices must rise)", index, last);
            last = index;
            if (!parse_number(t[i].substr(colon + 1), &values[index - 1]))
                return at + "value " + quoted_text(t[i].substr(colon + 1)) + " is not a finite decimal number";
        }
    }
    while (lines.next(&b, &e))
        if (!tokens(b, e, 0).empty())
            return strprintf("line %d: text after the last of the %ld support vectors (total_sv)",
                             lines.number, total_sv);
    *out = std::move(s);
    return "";
}

double Svm::predict(const double *x) const
{
    // libsvm svm_predict_values, k_function(RBF): per support vector, the
    // squared distance summed in index order, then coef * exp(-gamma * d)
    // summed in file order, minus rho.
    const size_t n = static_cast<size_t>(n_features);
    double sum = 0;
    for (size_t j = 0; j < coef.size(); j++) {
        const double *v = &sv[j * n];
        double d2 = 0;
        for (size_t k = 0; k < n; k++) {
            const double d = x[k] - v[k];
            d2 += d * d;
        }
        sum += coef[j] * std::exp(-gamma * d2);
    }
    sum -= rho;
    return sum;
}

} // namespace vmafhip
