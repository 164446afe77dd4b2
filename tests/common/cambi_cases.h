// The CAMBI golden cases (libvmaf 3.2.0 goldens, tests/fixtures/MANIFEST.md):
// which fixture pairs, with which options, against which golden file.
// tests/unit/test_cambi.cpp runs them on the CPU code, tests/gpu/
// test_cambi_gpu.cpp on the GPU backend.
#pragma once

#include <string>
#include <vector>

#include "tests/common/extractors.h"

namespace testfx {

/// The v1 models' options (models/v1/*.json).
inline const OptionList &cambi_v1_options()
{
    static const OptionList o = {{"cambi_high_res_speedup", "1080"},
                                 {"cambi_vis_lum_threshold", "0.06"},
                                 {"cambi_max_val", "17"}};
    return o;
}

/// The pairs whose v1 golden holds the cambi column of the v1 options.
inline const std::vector<std::string> &cambi_v1_pairs()
{
    static const std::vector<std::string> p = {"natural1_576x324_yuv420p__ref_vs_mpeg2q28",
                                               "natural1_576x324_yuv420p__ref_vs_x264crf38",
                                               "natural1_576x324_yuv420p__ref_vs_ref",
                                               "natural2_352x288_yuv420p10le__ref_vs_x265crf32"};
    return p;
}

inline std::string cambi_v1_golden(const std::string &pair)
{
    return "golden/" + pair + ".vmaf_v1.0.16_3d0h.fullprec.json";
}

/// Option sets of one pair, all in its cambi golden.
struct CambiOptionSets {
    std::string pair;
    std::vector<OptionList> sets;
};

inline const std::vector<CambiOptionSets> &cambi_option_sets()
{
    static const std::vector<CambiOptionSets> c = {
        {"natural1_576x324_yuv420p__ref_vs_mpeg2q28",
         {
             {},
             {{"window_size", "127"}, {"topk", "0.1"}},
             {{"window_size", "15"}, {"topk", "1"}},
             {{"max_log_contrast", "5"}, {"tvi_threshold", "0.005"}},
             {{"max_log_contrast", "0"}, {"cambi_max_val", "3"}}, // clips
             {{"enc_bitdepth", "10"}},                              // no anti-dithering
             {{"enc_width", "480"}, {"enc_height", "270"}},         // resize
             {{"enc_width", "333"}, {"enc_height", "217"}},
             {{"enc_width", "1920"}, {"enc_height", "1080"}},       // clamped to the picture
             {{"cambi_vis_lum_threshold", "1.5"}, {"cambi_high_res_speedup", "2160"}},
             {{"cambi_topk", "0.3"}, {"full_ref", "true"}, {"src_width", "480"},
              {"src_height", "270"}},
         }},
        {"natural2_352x288_yuv420p10le__ref_vs_x265crf32",
         {
             {},
             {{"enc_bitdepth", "8"}}, // anti-dithering on a 10-bit picture
             {{"topk", "0.2"}, {"window_size", "40"}, {"full_ref", "true"}},
         }},
    };
    return c;
}

inline std::string cambi_golden(const std::string &pair)
{
    return "golden/" + pair + ".cambi.fullprec.json";
}

/// The PQ EOTF (eotf, cambi_eotf), each pair's sets in its .cambi_pq golden;
/// synth1 (1920x1080 10-bit) is made at build time.
inline const std::vector<CambiOptionSets> &cambi_pq_option_sets()
{
    static const std::vector<OptionList> small = {
        {{"eotf", "pq"}},
        {{"cambi_eotf", "pq"}, {"cambi_vis_lum_threshold", "1.5"}},
        {{"eotf", "pq"}, {"tvi_threshold", "0.005"}, {"max_log_contrast", "3"}},
        {{"eotf", "bt1886"}, {"cambi_eotf", "pq"}, {"full_ref", "true"}},
    };
    static const std::vector<CambiOptionSets> c = {
        {"natural1_576x324_yuv420p__ref_vs_x264crf38", small},
        {"natural2_352x288_yuv420p10le__ref_vs_x265crf32", small},
        {"synth1_1920x1080_yuv420p10le__ref_vs_dis",
         {{{"eotf", "pq"}, {"cambi_high_res_speedup", "1080"}},
          {{"cambi_eotf", "pq"}, {"cambi_vis_lum_threshold", "0.5"}}}},
    };
    return c;
}

inline std::string cambi_pq_golden(const std::string &pair)
{
    return "golden/" + pair + ".cambi_pq.fullprec.json";
}

/// The feature spec of cambi with opts, as vmafhip_open() takes it.
inline std::string cambi_spec(const OptionList &opts)
{
    std::string s = "cambi";
    for (size_t i = 0; i < opts.size(); i++)
        s += (i ? ":" : "=") + opts[i].first + "=" + opts[i].second;
    return s;
}

} // namespace testfx
