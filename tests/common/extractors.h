// Extractor instances for tests of one extractor's CPU reference, built
// from a feature spec through the table as vmafhip_open() builds them.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/thread_pool.h"
#include "core/specs.h"
#include "extractors/options.h"

namespace testfx {

/// The request of one feature spec ("adm=debug=true"); a failure is a test failure.
inline vmafhip::FeatureRequest feature_request(const std::string &spec)
{
    std::vector<vmafhip::FeatureRequest> r;
    std::string msg;
    EXPECT_EQ(vmafhip::parse_features(spec.c_str(), &r, &msg), 0) << msg;
    EXPECT_EQ(r.size(), 1u) << spec;
    return r.empty() ? vmafhip::FeatureRequest{} : r[0];
}

/// The options struct T of the extractor a spec names, with the spec's values.
template <typename T> T options_of(const std::string &spec)
{
    const vmafhip::FeatureRequest r = feature_request(spec);
    return vmafhip::options_struct<T>(*r.info, r.options);
}

/// An instance for spec and geometry g, or nullptr with *ret and *msg set.
inline std::unique_ptr<vmafhip::Extractor> try_extractor(const std::string &spec,
                                                         const vmafhip::Geometry &g, int *ret,
                                                         std::string *msg)
{
    const vmafhip::FeatureRequest r = feature_request(spec);
    vmafhip::ExtractorConfig c;
    c.g = g;
    c.options = r.options;
    c.suffix = vmafhip::option_suffix(*r.info, r.options);
    *ret = 0;
    return r.info->create(c, ret, msg);
}

/// An instance of extractor class T for spec and g; a failure is a test failure.
template <typename T> std::unique_ptr<T> extractor(const std::string &spec, const vmafhip::Geometry &g)
{
    int ret;
    std::string msg;
    std::unique_ptr<vmafhip::Extractor> e = try_extractor(spec, g, &ret, &msg);
    EXPECT_TRUE(e) << spec << ": " << msg;
    return std::unique_ptr<T>(static_cast<T *>(e.release()));
}

/// e.cpu() on fv with 1, 2 and 3 threads must give the same accumulator
/// bytes: the work is split by rows and the partial sums are combined in
/// row order, whatever the pool size. The last accumulators are left in acc.
inline void same_sums_any_thread_count(const vmafhip::Extractor &e, const vmafhip::FrameView &fv, void *acc)
{
    std::vector<unsigned char> first(e.accum_bytes());
    for (int threads : {1, 2, 3}) {
        vmafhip::ThreadPool pool(threads);
        e.cpu(fv, threads == 1 ? first.data() : acc, pool);
        if (threads > 1) {
            EXPECT_EQ(std::memcmp(first.data(), acc, first.size()), 0) << threads << " threads";
        }
    }
}

/// Option names (or aliases) and values as text, set in this order.
typedef std::vector<std::pair<std::string, std::string>> OptionList;

/// An instance of table entry e for g with opts, or nullptr with *ret and
/// *msg set (by the option parser or by e.create).
inline std::unique_ptr<vmafhip::Extractor> make_extractor(const vmafhip::ExtractorInfo &e,
                                                          const vmafhip::Geometry &g,
                                                          const OptionList &opts, int *ret,
                                                          std::string *msg)
{
    vmafhip::ExtractorConfig c;
    c.g = g;
    c.options = vmafhip::default_options(e);
    for (const auto &o : opts) {
        const int r = vmafhip::set_option(e, &c.options, o.first, o.second, msg);
        if (r < 0) {
            *ret = r;
            return nullptr;
        }
    }
    c.suffix = vmafhip::option_suffix(e, c.options);
    return e.create(c, ret, msg);
}

/// e refuses g with opts: the error want_ret and a message holding every word.
inline void expect_refused(const vmafhip::ExtractorInfo &e, const vmafhip::Geometry &g,
                           const OptionList &opts, int want_ret,
                           const std::vector<std::string> &words)
{
    int ret = 0;
    std::string msg;
    EXPECT_EQ(make_extractor(e, g, opts, &ret, &msg), nullptr) << g.w << "x" << g.h;
    EXPECT_EQ(ret, want_ret) << msg;
    for (const std::string &w : words)
        EXPECT_NE(msg.find(w), std::string::npos) << "'" << w << "' not in: " << msg;
}

/// Whether e accepts g with opts (a refusal must say why).
inline bool accepted(const vmafhip::ExtractorInfo &e, const vmafhip::Geometry &g,
                     const OptionList &opts = {})
{
    int ret = 0;
    std::string msg;
    const bool ok = make_extractor(e, g, opts, &ret, &msg) != nullptr;
    EXPECT_TRUE(ok || !msg.empty());
    return ok;
}

} // namespace testfx
