// The support vector machine inside a libvmaf model: the libsvm text of the
// "model" key, read strictly, and libsvm's prediction for an RBF-kernel
// regression in its exact operation order (docs/model.md §2, §3).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace vmafhip {

/// A ν-SVR or ε-SVR with an RBF kernel; support vectors stored dense.
struct Svm {
    int n_features = 0;       ///< inputs: libsvm node indices 1..n_features
    double gamma = 0, rho = 0;
    std::vector<double> coef; ///< one per support vector, in file order
    std::vector<double> sv;   ///< coef.size() rows of n_features values; absent entries 0

    /// libsvm's svm_predict for the nodes x[0..n_features) (indices 1..n).
    double predict(const double *x) const;
};

/// Read libsvm model text for a model with n_features inputs. *budget is the
/// number of support vector values (coefficients included) still allowed
/// for the whole model file; what this SVM stores is taken from it.
/// @return "" on success, else what is wrong (with its line number).
std::string svm_read(const std::string &text, int n_features, size_t *budget, Svm *out);

/// Text from a model file as messages show it: in double quotes, cut after
/// 40 characters.
std::string quoted_text(std::string_view s);

/// Parse [b, e) as a finite decimal number ([+-]digits[.digits][e[+-]digits],
/// no hex, inf or nan), correctly rounded. @return false if it is not one.
bool parse_decimal(const char *b, const char *e, double *out);

} // namespace vmafhip
