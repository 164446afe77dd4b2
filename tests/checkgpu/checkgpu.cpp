// checkgpu: the CPU reference against the GPU backend, extractor by
// extractor, on random planes, comparing the integer accumulators exactly
// (psnr SSE, ADM num/den/aim per scale and orientation, the sample maximum,
// cambi's unclipped doubles), SpEED's float eigenvalues, singular flags and
// block variances exactly, psnr_hvs's float32 sums exactly, and the
// float_ssim and float_ms_ssim map sums and ciede's double sum within a
// relative 1e-12.
//
// Quick start for adding a case: append a line to `cases` below (feature
// spec with options, size, bit depth, layout). Run:
//   checkgpu [--test=adm|psnr|float_ssim|speed_chroma|...] [--seed=N] [--bench]
// Exit status 0 = all equal, 1 = a mismatch, 77 = no GPU (skipped).
// Each compared frame pair is scored after a garbage frame in the same
// context, so a result block that was not reset would show up as a mismatch.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/metrics.h"
#include "extractors/ciede/ciede.h"
#include "extractors/ms_ssim/ms_ssim.h"
#include "extractors/ssim/ssim.h"
#include "tests/common/fixtures.h"
#include "tests/common/frame_view.h"
#include "vmafhip.h"

using namespace vmafhip;

namespace {

struct Case {
    const char *spec; ///< the features (VmafHipSettings::features); --test picks by extractor name
    int w, h, bpc;
    VmafHipChroma chroma;
    const char *what;
};

const std::vector<Case> cases = {
    {"psnr", 1, 1, 8, VMAFHIP_CHROMA_420, "1x1"},
    {"psnr", 2, 2, 8, VMAFHIP_CHROMA_420, "2x2"},
    {"psnr", 17, 5, 10, VMAFHIP_CHROMA_422, "odd 4:2:2"},
    {"psnr", 333, 111, 12, VMAFHIP_CHROMA_444, "odd 4:4:4"},
    {"psnr", 1920, 1080, 16, VMAFHIP_CHROMA_420, "16-bit 1080p"},
    {"psnr", 3840, 2160, 8, VMAFHIP_CHROMA_420, "4K"},
    {"float_ssim", 11, 11, 8, VMAFHIP_CHROMA_420, "minimum 11x11"},
    {"float_ssim", 97, 61, 10, VMAFHIP_CHROMA_420, "odd"},
    {"float_ssim", 854, 480, 8, VMAFHIP_CHROMA_420, "scale 2"},
    {"float_ssim", 1280, 720, 12, VMAFHIP_CHROMA_420, "scale 3"},
    {"float_ssim", 1921, 1081, 8, VMAFHIP_CHROMA_400, "odd 1080p, scale 4"},
    {"float_ssim", 3840, 2160, 16, VMAFHIP_CHROMA_420, "4K 16-bit, scale 8"},
    {"float_ssim=scale=3", 576, 324, 8, VMAFHIP_CHROMA_420, "forced scale 3"},
    {"adm", 33, 33, 8, VMAFHIP_CHROMA_420, "minimum 33x33"},
    {"adm", 37, 33, 10, VMAFHIP_CHROMA_420, "37x33"},
    {"adm", 97, 61, 8, VMAFHIP_CHROMA_420, "odd, border mirror at scale 3"},
    {"adm", 321, 241, 12, VMAFHIP_CHROMA_420, "odd 12-bit"},
    {"adm", 1920, 1080, 8, VMAFHIP_CHROMA_420, "1080p"},
    {"adm", 1921, 1081, 10, VMAFHIP_CHROMA_420, "odd 1080p"},
    {"adm", 3840, 2160, 8, VMAFHIP_CHROMA_420, "4K: den shift 1"},
    {"adm=adm_enhn_gain_limit=1", 640, 360, 8, VMAFHIP_CHROMA_420, "gain limit 1"},
    {"adm=adm_enhn_gain_limit=1.2", 640, 360, 8, VMAFHIP_CHROMA_420, "gain limit 1.2"},
    {"adm=adm_skip_scale0=true", 640, 360, 10, VMAFHIP_CHROMA_420, "skip scale 0"},
    {"adm=adm_skip_aim=true", 640, 360, 8, VMAFHIP_CHROMA_420, "skip aim"},
    {"adm=adm_csf_mode=3:adm_ref_display_height=2160", 640, 360, 8, VMAFHIP_CHROMA_420,
     "csf mode 3, 2160"},
    {"adm=adm_norm_view_dist=5", 640, 360, 12, VMAFHIP_CHROMA_420, "view distance 5"},
    {"vif", 8, 8, 8, VMAFHIP_CHROMA_420, "minimum 8x8"},
    {"vif", 15, 9, 10, VMAFHIP_CHROMA_420, "one-row, one-column scale 3"},
    {"vif", 97, 61, 8, VMAFHIP_CHROMA_420, "odd"},
    {"vif", 321, 241, 12, VMAFHIP_CHROMA_444, "odd 12-bit"},
    {"vif", 1920, 1080, 8, VMAFHIP_CHROMA_420, "1080p"},
    {"vif", 1921, 1081, 10, VMAFHIP_CHROMA_420, "odd 1080p"},
    {"vif", 3840, 2160, 8, VMAFHIP_CHROMA_420, "4K"},
    {"vif", 640, 360, 16, VMAFHIP_CHROMA_400, "16-bit"},
    {"vif=vif_enhn_gain_limit=1", 640, 360, 8, VMAFHIP_CHROMA_420, "gain limit 1"},
    {"vif=vif_skip_scale0=true:debug=true", 640, 360, 10, VMAFHIP_CHROMA_420, "skip scale 0"},
    {"motion", 3, 3, 8, VMAFHIP_CHROMA_420, "minimum 3x3"},
    {"motion", 97, 61, 8, VMAFHIP_CHROMA_420, "odd"},
    {"motion", 1920, 1080, 8, VMAFHIP_CHROMA_420, "1080p"},
    {"motion", 1921, 1081, 12, VMAFHIP_CHROMA_420, "odd 1080p 12-bit"},
    {"motion", 3840, 2160, 10, VMAFHIP_CHROMA_420, "4K 10-bit"},
    {"motion", 640, 360, 16, VMAFHIP_CHROMA_400, "16-bit"},
    {"motion=motion_five_frame_window=true", 640, 360, 8, VMAFHIP_CHROMA_420, "five-frame window"},
    {"adm|vif|motion", 576, 324, 8, VMAFHIP_CHROMA_420, "the VMAF extractors"},
    {"speed_chroma", 160, 160, 8, VMAFHIP_CHROMA_420, "minimum 160x160"},
    {"speed_chroma", 576, 324, 10, VMAFHIP_CHROMA_420, "10-bit"},
    {"speed_chroma", 333, 181, 12, VMAFHIP_CHROMA_422, "odd 4:2:2 12-bit"},
    {"speed_chroma", 321, 241, 16, VMAFHIP_CHROMA_444, "odd 4:4:4 16-bit"},
    {"speed_chroma=mxv=45:nnf=0.1:snn=0.19:wvm=5", 1920, 1080, 8, VMAFHIP_CHROMA_420, "v1 1080p"},
    {"speed_chroma=ps=0.6:psm=bilinear:mxv=45:nnf=0.1:snn=0.19:wvm=5", 1280, 720, 10,
     VMAFHIP_CHROMA_420, "v1 phone (0.6)"},
    {"speed_chroma=ps=0.5:psm=bilinear", 3840, 2160, 8, VMAFHIP_CHROMA_420, "4K bilinear 0.5"},
    {"speed_chroma=ps=2:psm=bilinear", 576, 324, 8, VMAFHIP_CHROMA_420, "bilinear upscale"},
    {"speed_chroma=ps=0.99:psm=bicubic", 576, 324, 12, VMAFHIP_CHROMA_420, "bicubic 0.99"},
    {"speed_chroma=ps=1.5:psm=lanczos4", 576, 324, 8, VMAFHIP_CHROMA_420, "lanczos4 1.5"},
    {"speed_chroma=ps=0.8:psm=lanczos4", 640, 360, 10, VMAFHIP_CHROMA_444, "lanczos4 0.8"},
    {"speed_chroma=ps=0.7", 1280, 720, 8, VMAFHIP_CHROMA_420, "nearest 0.7"},
    {"speed_chroma=ks=2", 576, 324, 8, VMAFHIP_CHROMA_420, "19 and 5 taps"},
    {"speed_chroma=ks=0.5", 576, 324, 16, VMAFHIP_CHROMA_420, "5 and 3 taps"},
    {"speed_temporal", 80, 80, 8, VMAFHIP_CHROMA_400, "minimum 80x80 gray"},
    {"speed_temporal", 576, 324, 10, VMAFHIP_CHROMA_420, "10-bit"},
    {"speed_temporal=urd=true", 577, 323, 8, VMAFHIP_CHROMA_420, "odd, reference difference"},
    {"speed_temporal=ps=0.5:psm=bilinear", 1920, 1080, 12, VMAFHIP_CHROMA_420, "bilinear 0.5"},
    {"speed_temporal=ps=0.8:psm=lanczos4", 640, 360, 8, VMAFHIP_CHROMA_420, "lanczos4 0.8"},
    {"speed_temporal=ps=0.6:psm=bicubic", 640, 360, 16, VMAFHIP_CHROMA_420, "bicubic 0.6"},
    {"speed_temporal", 3840, 2160, 8, VMAFHIP_CHROMA_420, "4K"},
    {"speed_chroma|speed_temporal|motion", 576, 324, 8, VMAFHIP_CHROMA_420, "both SpEEDs"},
    {"cambi", 216, 216, 8, VMAFHIP_CHROMA_420, "minimum 216x216"},
    {"cambi", 575, 323, 10, VMAFHIP_CHROMA_444, "odd"},
    {"cambi=full_ref=true:enc_bitdepth=8", 640, 360, 12, VMAFHIP_CHROMA_420, "full_ref, dither"},
    {"cambi=enc_width=480:enc_height=270:full_ref=true", 640, 360, 16, VMAFHIP_CHROMA_420,
     "resize 16-bit"},
    {"cambi=max_log_contrast=5:window_size=127:topk=1", 1280, 720, 8, VMAFHIP_CHROMA_420,
     "nd 32, window 43"},
    {"cambi", 1920, 1080, 10, VMAFHIP_CHROMA_420, "1080p, window 33"},
    {"cambi=cambi_high_res_speedup=1080:vlt=0.06:cmxv=17", 1920, 1080, 8, VMAFHIP_CHROMA_420,
     "v1 options 1080p"},
    {"cambi=cambi_high_res_speedup=1080:vlt=0.06:cmxv=17", 3840, 2160, 10, VMAFHIP_CHROMA_420,
     "v1 options 4K"},
    {"cambi", 3840, 2160, 8, VMAFHIP_CHROMA_420, "4K, window 65"},
    {"float_ms_ssim", 176, 176, 8, VMAFHIP_CHROMA_420, "minimum 176x176"},
    {"float_ms_ssim", 177, 191, 10, VMAFHIP_CHROMA_420, "odd 10-bit"},
    {"float_ms_ssim", 1920, 1080, 8, VMAFHIP_CHROMA_420, "1080p"},
    {"float_ms_ssim", 1921, 1081, 12, VMAFHIP_CHROMA_400, "odd 1080p 12-bit gray"},
    {"float_ms_ssim=enable_lcs=true", 3840, 2160, 16, VMAFHIP_CHROMA_420, "4K 16-bit"},
    {"ciede", 2, 2, 8, VMAFHIP_CHROMA_420, "minimum 2x2"},
    {"ciede", 97, 61, 10, VMAFHIP_CHROMA_444, "odd 4:4:4"},
    {"ciede", 576, 324, 12, VMAFHIP_CHROMA_420, "12-bit"},
    {"ciede", 1920, 1080, 8, VMAFHIP_CHROMA_420, "1080p"},
    {"ciede", 1920, 1080, 10, VMAFHIP_CHROMA_444, "1080p 10-bit 4:4:4"},
    {"ciede", 3840, 2160, 16, VMAFHIP_CHROMA_420, "4K 16-bit"},
    {"psnr_hvs", 8, 8, 8, VMAFHIP_CHROMA_444, "minimum 8x8"},
    {"psnr_hvs", 16, 16, 10, VMAFHIP_CHROMA_420, "minimum 4:2:0"},
    {"psnr_hvs", 16, 8, 12, VMAFHIP_CHROMA_422, "minimum 4:2:2"},
    {"psnr_hvs", 97, 61, 8, VMAFHIP_CHROMA_420, "odd"},
    {"psnr_hvs", 333, 181, 12, VMAFHIP_CHROMA_422, "odd 4:2:2 12-bit"},
    {"psnr_hvs", 321, 241, 10, VMAFHIP_CHROMA_444, "odd 4:4:4 10-bit"},
    {"psnr_hvs", 1920, 1080, 8, VMAFHIP_CHROMA_420, "1080p"},
    {"psnr_hvs", 1921, 1081, 10, VMAFHIP_CHROMA_420, "odd 1080p 10-bit"},
    {"psnr_hvs", 3840, 2160, 8, VMAFHIP_CHROMA_420, "4K"},
    {"psnr_hvs", 3840, 2160, 12, VMAFHIP_CHROMA_444, "4K 4:4:4 12-bit"},
    {"float_psnr", 1, 1, 8, VMAFHIP_CHROMA_444, "minimum 1x1"},
    {"float_psnr", 1, 7, 10, VMAFHIP_CHROMA_400, "one column, 10-bit gray"},
    {"float_psnr", 97, 61, 12, VMAFHIP_CHROMA_420, "odd 12-bit"},
    {"float_psnr", 333, 181, 16, VMAFHIP_CHROMA_422, "odd 4:2:2 16-bit"},
    {"float_psnr", 1920, 1080, 8, VMAFHIP_CHROMA_420, "1080p"},
    {"float_psnr", 3840, 2160, 10, VMAFHIP_CHROMA_420, "4K 10-bit"},
    {"float_moment", 1, 1, 16, VMAFHIP_CHROMA_444, "minimum 1x1 16-bit"},
    {"float_moment", 7, 1, 8, VMAFHIP_CHROMA_400, "one row gray"},
    {"float_moment", 97, 61, 10, VMAFHIP_CHROMA_420, "odd 10-bit"},
    {"float_moment", 321, 241, 12, VMAFHIP_CHROMA_444, "odd 4:4:4 12-bit"},
    {"float_moment", 1921, 1081, 8, VMAFHIP_CHROMA_420, "odd 1080p"},
    {"float_moment", 3840, 2160, 16, VMAFHIP_CHROMA_420, "4K 16-bit"},
    {"float_ansnr", 3, 3, 8, VMAFHIP_CHROMA_444, "minimum 3x3"},
    {"float_ansnr", 4, 3, 16, VMAFHIP_CHROMA_444, "4x3 16-bit"},
    {"float_ansnr", 97, 61, 10, VMAFHIP_CHROMA_420, "odd 10-bit"},
    {"float_ansnr", 333, 181, 12, VMAFHIP_CHROMA_422, "odd 4:2:2 12-bit"},
    {"float_ansnr", 1920, 1080, 8, VMAFHIP_CHROMA_420, "1080p"},
    {"float_ansnr", 1921, 1081, 16, VMAFHIP_CHROMA_400, "odd 1080p 16-bit gray"},
    {"float_ansnr", 3840, 2160, 12, VMAFHIP_CHROMA_420, "4K 12-bit"},
    {"float_psnr|float_moment|float_ansnr", 576, 324, 10, VMAFHIP_CHROMA_420, "the three together"},
    {"float_motion", 3, 3, 8, VMAFHIP_CHROMA_444, "minimum 3x3"},
    {"float_motion=motion_filter_size=3", 2, 2, 8, VMAFHIP_CHROMA_420, "3-tap minimum 2x2"},
    {"float_motion=motion_filter_size=1", 3, 3, 10, VMAFHIP_CHROMA_444, "no blur, minimum 3x3"},
    {"float_motion=motion_add_scale1=true", 3, 3, 12, VMAFHIP_CHROMA_444, "half size 2x2"},
    {"float_motion=motion_filter_size=3:motion_add_scale1=true", 2, 2, 16, VMAFHIP_CHROMA_420,
     "half size 1x1"},
    {"float_motion", 97, 61, 8, VMAFHIP_CHROMA_420, "odd"},
    {"float_motion", 333, 181, 10, VMAFHIP_CHROMA_422, "odd 10-bit"},
    {"float_motion", 321, 241, 12, VMAFHIP_CHROMA_444, "odd 12-bit"},
    {"float_motion", 640, 360, 16, VMAFHIP_CHROMA_400, "16-bit"},
    {"float_motion=motion_filter_size=3", 577, 323, 8, VMAFHIP_CHROMA_420, "odd, 3 taps"},
    {"float_motion=motion_filter_size=1", 576, 324, 12, VMAFHIP_CHROMA_420, "no blur"},
    {"float_motion=motion_filter_size=0", 576, 324, 8, VMAFHIP_CHROMA_420, "size 0: 5 taps"},
    {"float_motion=motion_add_scale1=true", 97, 61, 10, VMAFHIP_CHROMA_420, "odd, half size"},
    {"float_motion=motion_add_scale1=true:motion_filter_size=3", 1921, 1081, 16,
     VMAFHIP_CHROMA_420, "odd 1080p half size"},
    {"float_motion=motion_force_zero=true", 576, 324, 8, VMAFHIP_CHROMA_420, "force zero"},
    {"float_motion", 1920, 1080, 8, VMAFHIP_CHROMA_420, "1080p"},
    {"float_motion", 1921, 1081, 10, VMAFHIP_CHROMA_420, "odd 1080p 10-bit"},
    {"float_motion", 3840, 2160, 10, VMAFHIP_CHROMA_420, "4K 10-bit"},
    {"float_motion=motion_add_scale1=true", 3840, 2160, 8, VMAFHIP_CHROMA_420, "4K half size"},
    {"float_motion|motion", 576, 324, 8, VMAFHIP_CHROMA_420, "with integer motion"},
    {"float_motion=motion_add_uv=true", 6, 6, 8, VMAFHIP_CHROMA_420, "chroma, minimum 6x6"},
    {"float_motion=motion_add_uv=true:motion_add_scale1=true", 577, 323, 10, VMAFHIP_CHROMA_420,
     "chroma at libvmaf's pitch, odd"},
    {"float_motion=motion_add_uv=true:motion_add_scale1=true:motion_filter_size=3", 333, 181, 12,
     VMAFHIP_CHROMA_422, "chroma 4:2:2, 3 taps"},
    {"float_motion=motion_add_uv=true:motion_add_scale1=true", 321, 241, 16, VMAFHIP_CHROMA_444,
     "chroma 4:4:4"},
    {"float_motion=motion_add_uv=true:motion_add_scale1=true", 1920, 1080, 8, VMAFHIP_CHROMA_420,
     "chroma 1080p"},
    {"float_vif", 16, 16, 8, VMAFHIP_CHROMA_420, "minimum 16x16"},
    {"float_vif", 17, 19, 10, VMAFHIP_CHROMA_420, "odd 17x19"},
    {"float_vif", 97, 61, 12, VMAFHIP_CHROMA_444, "odd 12-bit"},
    {"float_vif", 321, 241, 16, VMAFHIP_CHROMA_400, "odd 16-bit gray"},
    {"float_vif", 1920, 1080, 8, VMAFHIP_CHROMA_420, "1080p"},
    {"float_vif", 1921, 1081, 10, VMAFHIP_CHROMA_420, "odd 1080p"},
    {"float_vif", 3840, 2160, 8, VMAFHIP_CHROMA_420, "4K"},
    {"float_vif=debug=true:vif_enhn_gain_limit=1", 640, 360, 8, VMAFHIP_CHROMA_420, "gain limit 1"},
    {"float_vif=vif_skip_scale0=true:debug=true", 640, 360, 10, VMAFHIP_CHROMA_420, "skip scale 0"},
    {"float_vif=vif_skip_scale0=true", 16, 16, 12, VMAFHIP_CHROMA_420, "skip scale 0 minimum"},
    {"float_vif=vif_kernelscale=0.5", 576, 324, 8, VMAFHIP_CHROMA_420, "ks 0.5: 9 to 3 taps"},
    {"float_vif=vif_kernelscale=3.71134", 56, 56, 8, VMAFHIP_CHROMA_420, "ks 360/97 minimum 56x56"},
    {"float_vif=vif_kernelscale=3.71134", 1281, 721, 10, VMAFHIP_CHROMA_420, "ks 360/97: 65 to 13 taps"},
    {"float_vif=vif_kernelscale=3", 1280, 720, 12, VMAFHIP_CHROMA_420, "ks 3: 51 to 9 taps"},
    {"float_vif=vif_kernelscale=1.5", 577, 323, 16, VMAFHIP_CHROMA_420, "ks 1.5 odd 16-bit"},
    {"float_vif=vif_prescale=0.7", 1280, 720, 8, VMAFHIP_CHROMA_420, "nearest 0.7"},
    {"float_vif=vif_prescale=0.5:vif_prescale_method=bilinear", 1920, 1080, 10, VMAFHIP_CHROMA_420,
     "bilinear 0.5"},
    {"float_vif=vif_prescale=2:vif_prescale_method=bilinear", 577, 323, 8, VMAFHIP_CHROMA_420,
     "bilinear upscale 2"},
    {"float_vif=vif_prescale=1.5:vif_prescale_method=bicubic", 333, 181, 12, VMAFHIP_CHROMA_420,
     "bicubic 1.5"},
    {"float_vif=vif_prescale=0.8:vif_prescale_method=lanczos4", 640, 360, 16, VMAFHIP_CHROMA_444,
     "lanczos4 0.8"},
    {"float_vif=vif_prescale=0.5:vif_prescale_method=lanczos4", 32, 32, 8, VMAFHIP_CHROMA_420,
     "lanczos4 to minimum 16x16"},
    {"float_vif=vif_prescale=1.001", 97, 61, 8, VMAFHIP_CHROMA_420, "prescale, same size"},
    {"float_vif=vif_sigma_nsq=0", 576, 324, 8, VMAFHIP_CHROMA_420, "sigma_nsq 0: NaN logs"},
    {"float_vif=vif_sigma_nsq=5:s1miv=0.5:s2miv=0.5:s3miv=0.5", 576, 324, 10, VMAFHIP_CHROMA_420,
     "sigma_nsq 5, min values"},
    {"float_vif|vif|motion", 576, 324, 8, VMAFHIP_CHROMA_420, "with the integer VMAF extractors"},
    {"float_adm", 17, 17, 8, VMAFHIP_CHROMA_444, "minimum 17x17"},
    {"float_adm", 18, 17, 10, VMAFHIP_CHROMA_444, "18x17 10-bit, 2x2 bands at scale 3"},
    {"float_adm", 97, 61, 8, VMAFHIP_CHROMA_420, "odd"},
    {"float_adm", 333, 181, 12, VMAFHIP_CHROMA_422, "odd 4:2:2 12-bit"},
    {"float_adm", 321, 241, 16, VMAFHIP_CHROMA_444, "odd 4:4:4 16-bit"},
    {"float_adm", 1920, 1080, 8, VMAFHIP_CHROMA_420, "1080p"},
    {"float_adm", 1921, 1081, 10, VMAFHIP_CHROMA_420, "odd 1080p 10-bit"},
    {"float_adm", 3840, 2160, 8, VMAFHIP_CHROMA_420, "4K"},
    {"float_adm", 3840, 2160, 12, VMAFHIP_CHROMA_400, "4K 12-bit gray"},
    {"float_adm=adm_enhn_gain_limit=1", 640, 360, 8, VMAFHIP_CHROMA_420, "gain limit 1"},
    {"float_adm=adm_enhn_gain_limit=1.2", 640, 360, 10, VMAFHIP_CHROMA_420, "gain limit 1.2"},
    {"float_adm=adm_skip_scale0=true:debug=true", 640, 360, 8, VMAFHIP_CHROMA_420, "skip scale 0"},
    {"float_adm=adm_bypass_cm=1", 640, 360, 12, VMAFHIP_CHROMA_420, "masking bypassed"},
    {"float_adm=adm_csf_mode=1:adm_csf_scale=1.5:adm_csf_diag_scale=0.5", 640, 360, 8,
     VMAFHIP_CHROMA_420, "Barten CSF"},
    {"float_adm=adm_csf_mode=2:adm_norm_view_dist=5:adm_ref_display_height=2160", 640, 360, 16,
     VMAFHIP_CHROMA_420, "the DLM paper's CSF"},
    {"float_adm=adm_f1s0=0.5:adm_f2s3=0:adm_skip_aim_scale=1", 640, 360, 8, VMAFHIP_CHROMA_420,
     "CSF overrides, a zero weight"},
    {"float_adm=adm_noise_weight=0", 640, 360, 10, VMAFHIP_CHROMA_420, "no noise floor"},
    {"float_adm|adm|float_adm=adm_enhn_gain_limit=1", 576, 324, 8, VMAFHIP_CHROMA_420,
     "two float_adm and adm"},
    {"float_adm=adm_p_norm=2.5", 97, 61, 8, VMAFHIP_CHROMA_420, "p-norm 2.5, odd"},
    {"float_adm=adm_p_norm=1:debug=true", 1920, 1080, 10, VMAFHIP_CHROMA_420, "p-norm 1, 1080p"},
    {"float_adm=adm_p_norm=20", 576, 324, 12, VMAFHIP_CHROMA_444, "p-norm 20"},
    {"float_adm=adm_p_norm=4.7:adm_bypass_cm=1", 3840, 2160, 8, VMAFHIP_CHROMA_420,
     "4K p-norm 4.7, masking off"},
};

// Random content with structure: smooth gradients, edges and noise, and a
// distorted copy (blur, noise, sharpening) so every ADM branch is taken.
void make_pair(const Geometry &g, std::mt19937 &rng, std::vector<uint8_t> *ref,
               std::vector<uint8_t> *dis, VmafHipPicture *pr, VmafHipPicture *pd)
{
    const int bps = g.bytes_per_sample();
    const int max = (1 << g.bpc) - 1;
    size_t off[3], total = 0;
    for (int p = 0; p < g.planes(); p++) {
        off[p] = total;
        total += static_cast<size_t>(g.stored_w(p)) * g.stored_h(p) * bps;
    }
    ref->assign(total, 0);
    dis->assign(total, 0);
    std::uniform_int_distribution<int> noise(-max / 20 - 1, max / 20 + 1);
    const int mode = static_cast<int>(rng() % 3);
    for (int p = 0; p < g.planes(); p++) {
        const int w = g.stored_w(p), h = g.stored_h(p);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int r = (x * max / (w + 1) + y * max / (h + 1)) / 2;
                if (((x / 7) + (y / 5)) % 4 == 0)
                    r = max - r; // edges
                r += noise(rng);
                int d = mode == 0 ? r + noise(rng) : mode == 1 ? (r + max / 2) / 2 : 2 * r - max / 2;
                r = std::min(std::max(r, 0), max);
                d = std::min(std::max(d, 0), max);
                const size_t i = off[p] + (static_cast<size_t>(y) * w + x) * bps;
                if (bps == 2) {
                    reinterpret_cast<uint16_t *>(ref->data() + i)[0] = static_cast<uint16_t>(r);
                    reinterpret_cast<uint16_t *>(dis->data() + i)[0] = static_cast<uint16_t>(d);
                } else {
                    (*ref)[i] = static_cast<uint8_t>(r);
                    (*dis)[i] = static_cast<uint8_t>(d);
                }
            }
        pr->data[p] = ref->data() + off[p];
        pd->data[p] = dis->data() + off[p];
        pr->stride[p] = pd->stride[p] = static_cast<ptrdiff_t>(w) * bps;
    }
}

// float_ssim's map sums (double, added in another order on the GPU) within a
// relative 1e-12 of the map's size.
bool ssim_sums_close(const SsimAccum &c, const SsimAccum &g, double map_pixels)
{
    const double d[4] = {c.ssim - g.ssim, c.l - g.l, c.c - g.c, c.s - g.s};
    for (double v : d)
        if (!(std::fabs(v) <= 1e-12 * map_pixels))
            return false;
    return true;
}

// Whether the float_ssim or float_ms_ssim accumulators a (CPU) and b (GPU)
// agree within ssim_sums_close(), or ciede's within a relative 1e-12.
bool float_sums_close(const Extractor &e, const uint8_t *a, const uint8_t *b)
{
    if (!std::strcmp(e.info().name, "float_ssim")) {
        const SsimParams &p = static_cast<const Ssim &>(e).params();
        return ssim_sums_close(*reinterpret_cast<const SsimAccum *>(a),
                               *reinterpret_cast<const SsimAccum *>(b),
                               static_cast<double>(p.map_w) * p.map_h);
    }
    if (!std::strcmp(e.info().name, "ciede")) {
        // The device's pow, exp, atan2, sin and cos may round a double
        // differently from glibc's, which now and then moves one pixel's
        // float difference by a unit (docs/ciede.md §7.1); the sum is then
        // about 1e-14 off, relatively.
        const double c = reinterpret_cast<const CiedeAccum *>(a)->sum;
        const double g = reinterpret_cast<const CiedeAccum *>(b)->sum;
        return std::fabs(c - g) <= 1e-12 * std::fabs(c);
    }
    if (!std::strcmp(e.info().name, "float_ms_ssim")) {
        const MsSsimSizes &sz = static_cast<const MsSsim &>(e).scale_sizes();
        const MsSsimAccum &c = *reinterpret_cast<const MsSsimAccum *>(a);
        const MsSsimAccum &g = *reinterpret_cast<const MsSsimAccum *>(b);
        for (int i = 0; i < MS_SSIM_SCALES; i++)
            if (!ssim_sums_close(c.scale[i], g.scale[i],
                                 static_cast<double>(sz.w[i] - (SSIM_TAPS - 1)) *
                                     (sz.h[i] - (SSIM_TAPS - 1))))
                return false;
        return true;
    }
    return false;
}

// Every extractor's accumulator block, CPU against GPU: bit for bit, except
// float_ssim's and float_ms_ssim's double map sums (ssim_sums_close()).
// @return the number of mismatches.
int compare(const char *what, const uint8_t *cpu, const uint8_t *gpu, const Metrics &m)
{
    int bad = 0;
    FrameHeader hc, hg;
    std::memcpy(&hc, cpu, sizeof hc);
    std::memcpy(&hg, gpu, sizeof hg);
    if (hc.max_sample != hg.max_sample) {
        std::printf("  MISMATCH %s max_sample: cpu %u gpu %u\n", what, hc.max_sample, hg.max_sample);
        bad++;
    }
    for (const Instance &x : m.ext) {
        const uint8_t *a = cpu + x.accum_offset, *b = gpu + x.accum_offset;
        const size_t n = x.ext->accum_bytes();
        if (!std::memcmp(a, b, n))
            continue;
        if (float_sums_close(*x.ext, a, b))
            continue;
        // Report the first differing 64-bit word.
        for (size_t k = 0; k + 8 <= n; k += 8) {
            uint64_t u, v;
            std::memcpy(&u, a + k, 8);
            std::memcpy(&v, b + k, 8);
            if (u != v) {
                std::printf("  MISMATCH %s %s, accumulator byte %zu: cpu 0x%016llx gpu 0x%016llx\n",
                            what, x.ext->info().name, k, static_cast<unsigned long long>(u),
                            static_cast<unsigned long long>(v));
                break;
            }
        }
        bad++;
    }
    return bad;
}

double ms_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char **argv)
{
    std::string only;
    unsigned seed = std::random_device{}();
    bool bench = false;
    for (int i = 1; i < argc; i++) {
        if (!std::strncmp(argv[i], "--test=", 7))
            only = argv[i] + 7;
        else if (!std::strncmp(argv[i], "--seed=", 7))
            seed = static_cast<unsigned>(std::strtoul(argv[i] + 7, nullptr, 10));
        else if (!std::strcmp(argv[i], "--bench"))
            bench = true;
        else {
            std::fprintf(stderr, "usage: %s [--test=EXTRACTOR] [--seed=N] [--bench]\n", argv[0]);
            return 2;
        }
    }
    if (vmafhip_device_count() == 0) {
        std::printf("checkgpu: no usable GPU: skipped\n");
        return 77;
    }
    std::printf("checkgpu: seed %u\n", seed);
    std::mt19937 rng(seed);
    int failures = 0, run = 0;
    for (const Case &c : cases) {
        const std::string extractor = std::string(c.spec).substr(0, std::strcspn(c.spec, "=|"));
        if (!only.empty() && only != extractor)
            continue;
        VmafHipSettings s = testfx::settings(c.w, c.h, c.bpc, c.chroma, c.spec);
        s.queue_depth = 1;
        Metrics m;
        std::string err;
        if (metrics_create(s, Logger(), &m, &err) < 0) {
            std::printf("FAIL %-10s %4dx%-4d %2d-bit %s: %s\n", c.spec, c.w, c.h, c.bpc, c.what, err.c_str());
            failures++;
            continue;
        }
        int ret = 0;
        auto cpu = make_cpu_backend(m, 0, 1);
        auto gpu = make_hip_backend(m, s, Logger(), &ret, &err);
        if (!gpu) {
            std::printf("FAIL %s: GPU backend: %s\n", c.what, err.c_str());
            failures++;
            continue;
        }
        // Frames before the compared ones: a garbage frame the GPU results
        // must not leak from, and the earlier pictures of look-behind.
        const int frames = 1 + m.lookbehind + 1;
        std::vector<std::vector<uint8_t>> rb(frames), db(frames);
        std::vector<VmafHipPicture> pr(frames), pd(frames);
        for (int i = 0; i < frames; i++)
            make_pair(m.g, rng, &rb[i], &db[i], &pr[i], &pd[i]);
        std::vector<uint8_t> a_cpu(m.accum_bytes), a_gpu(m.accum_bytes);
        double cpu_ms = 0, gpu_ms = 0;
        int bad = 0;
        for (int i = 0; i < frames && !bad; i++) {
            const FrameView f = testfx::view_of(m.g, pr[i], pd[i], m.planes, static_cast<unsigned>(i));
            const auto t_cpu = std::chrono::steady_clock::now();
            cpu->submit(f, true, kNotLent, &err);
            cpu->collect(true, a_cpu.data(), &err);
            cpu_ms = ms_since(t_cpu);
            const auto t_gpu = std::chrono::steady_clock::now();
            if (gpu->submit(f, true, kNotLent, &err) < 0 || gpu->collect(true, a_gpu.data(), &err) < 0) {
                std::printf("FAIL %s: %s\n", c.what, err.c_str());
                bad++;
                break;
            }
            gpu_ms = ms_since(t_gpu);
            if (i > m.lookbehind) // earlier frames read pictures the CPU does not have
                bad += compare(c.what, a_cpu.data(), a_gpu.data(), m);
        }
        failures += bad != 0;
        run++;
        std::printf("%s %-34s %4dx%-4d %2d-bit %-18s", bad ? "FAIL" : "ok  ", c.spec, c.w, c.h, c.bpc, c.what);
        if (bench)
            std::printf("  cpu %8.2f ms  gpu %7.3f ms (one frame, synchronous)", cpu_ms, gpu_ms);
        std::printf("\n");
    }
    std::printf("checkgpu: %d cases, %d failed (seed %u)\n", run, failures, seed);
    return failures ? 1 : 0;
}
