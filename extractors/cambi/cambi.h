// cambi: libvmaf's CAMBI banding index (feature extractor "cambi"),
// docs/cambi.md; § numbers in this folder are its sections. The CPU code
// (cambi_cpu.cpp) and the GPU code (cambi_gpu.cpp, kernels/cambi/) share
// their arithmetic through kernels/cambi/cambi_ops.h.
#pragma once

#include <cstdint>
#include <vector>

#include "base/scratch_pool.h"
#include "extractors/extractor.h"
#include "kernels/cambi/cambi_ops.h"

namespace vmafhip {

/// Option values (extractor table: cambi_extractor), §1.2.
struct CambiOptions {
    double max_val;         ///< cambi_max_val: the outputs' upper clip
    int enc_width;          ///< 0: the picture's width
    int enc_height;         ///< 0: the picture's height
    int enc_bitdepth;       ///< 0: the picture's bpc; below 10 turns anti-dithering on
    int src_width;          ///< full_ref: the reference's working width (0: picture)
    int src_height;         ///< full_ref: the reference's working height (0: picture)
    int window_size;        ///< W0 of §2.5
    double topk;            ///< wins over cambi_topk when it is not 0.6
    double cambi_topk;
    double tvi_threshold;
    double vis_lum_threshold;
    int max_log_contrast;
    int full_ref;           ///< also score the reference (cambi_source, cambi_full_reference)
    int high_res_speedup;   ///< 0, 1080, 1440 or 2160
    int eotf;               ///< CambiEotf, the index in the option's choices
    int cambi_eotf;         ///< the same; wins when it is not bt1886 (§1.2 step 6)
};

/// The EOTFs of §2.2, in the order of the eotf options' choices.
enum CambiEotf { CAMBI_EOTF_BT1886 = 0, CAMBI_EOTF_PQ = 1 };

/// Everything one picture's pass (§3) needs, resolved at creation (§1.2, §2).
struct CambiPass {
    int w = 0, h = 0;            ///< target size (encode or source size)
    int ws = 0, pad = 0;         ///< adjusted window (§2.5)
    int mask_index = 0;          ///< spatial-mask threshold (§2.6)
    bool resize = false;         ///< target size differs from the picture's
    std::vector<int> sx, sy;     ///< resize: source column / row of each target one (§4.2)
};

extern const ExtractorInfo cambi_extractor;

/// §2.7: R[0..CAMBI_RECIPROCALS - 1], made once on the host.
const float *cambi_reciprocals();

struct CambiCpuScratch; // cambi_cpu.cpp: the planes of one picture's pass, kept between frames
struct CambiKernels;    // cambi_cpu.cpp: its per-pixel loops

/// The per-pixel loops for these CpuFlag bits (choose_kernels()).
const CambiKernels &cambi_kernels(unsigned cpu_flags);

/// §9 by counting: the exact sum, in units (cambi_units()), of the k largest
/// of the n c-values cv (each 0 or a positive float; 1 <= k <= n), with
/// bins as scratch. Below CAMBI_EXACT_UNITS, cambi_exact_mean() of it is
/// cambi_top_k_mean()'s value.
uint64_t cambi_top_k_units(const float *cv, int n, int k, std::vector<uint32_t> &bins);

class Cambi final : public Extractor {
public:
    /// c must have passed check().
    explicit Cambi(const ExtractorConfig &c);
    /// 0, or -EINVAL with *msg saying what is accepted (§1.4, §12).
    static int check(const ExtractorConfig &c, std::string *msg);

    void names(std::vector<std::string> *out) const override;
    int planes() const override { return 1; }
    size_t accum_bytes() const override { return sizeof(CambiAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

    // What the GPU code reads (cambi_gpu.cpp).
    const CambiTables &tables() const { return t_; }
    const CambiPass &dis_pass() const { return dis_; }
    const CambiPass &src_pass() const { return src_; }
    bool full_ref() const { return o_.full_ref != 0; }
    bool anti_dither() const { return anti_dither_; }
    bool speedup() const { return speedup_; }
    double topk() const { return topk_; }
    int bpc() const { return g_.bpc; }

private:
    /// The unclipped score of one luma plane through pass p (§3 to §10),
    /// with the planes of s (sized here on first use), §8 in bands over pool.
    double score(const PlaneView &luma, const CambiPass &p, CambiCpuScratch &s,
                 ThreadPool &pool) const;

    CambiOptions o_;
    Geometry g_;
    std::string suffix_;
    bool anti_dither_ = false;   ///< enc_bitdepth < 10 (§4.3)
    bool speedup_ = false;       ///< the high-resolution speed-up is on (§1.2 step 5)
    CambiTables t_ = {};         ///< nd, vlt, the band, T[d], cw[d] (§2, §8.1)
    double topk_ = 0.6;
    CambiPass dis_, src_;
    const CambiKernels *k_;      ///< the CPU loops (cambi_kernels())
    mutable ScratchPool<CambiCpuScratch> cpu_;
};

} // namespace vmafhip
