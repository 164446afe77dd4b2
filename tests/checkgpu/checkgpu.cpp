// checkgpu: the CPU reference against the GPU backend, extractor by
// extractor, on random planes, comparing the integer accumulators exactly
// (psnr SSE, ADM num/den/aim per scale and orientation, the sample maximum)
// and the float_ssim map sums within a relative 1e-12.
//
// Quick start for adding a case: append a line to `cases` below (feature,
// size, bit depth, layout, an option tweak). Run:
//   checkgpu [--test=adm|psnr|float_ssim] [--seed=N] [--bench]
// Exit status 0 = all equal, 1 = a mismatch, 77 = no GPU (skipped).
// Each frame pair is scored after a garbage frame in the same context, so a
// result block that was not reset would show up as a mismatch.
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
#include "tests/common/fixtures.h"
#include "vmafhip.h"

using namespace vmafhip;

namespace {

struct Case {
    const char *feature; ///< libvmaf extractor name, for --test
    int w, h, bpc;
    VmafHipChroma chroma;
    std::function<void(VmafHipSettings *)> tweak;
    const char *what;
};

void none(VmafHipSettings *) {}

const std::vector<Case> cases = {
    {"psnr", 1, 1, 8, VMAFHIP_CHROMA_420, none, "1x1"},
    {"psnr", 2, 2, 8, VMAFHIP_CHROMA_420, none, "2x2"},
    {"psnr", 17, 5, 10, VMAFHIP_CHROMA_422, none, "odd 4:2:2"},
    {"psnr", 333, 111, 12, VMAFHIP_CHROMA_444, none, "odd 4:4:4"},
    {"psnr", 1920, 1080, 16, VMAFHIP_CHROMA_420, none, "16-bit 1080p"},
    {"psnr", 3840, 2160, 8, VMAFHIP_CHROMA_420, none, "4K"},
    {"float_ssim", 11, 11, 8, VMAFHIP_CHROMA_420, none, "minimum 11x11"},
    {"float_ssim", 97, 61, 10, VMAFHIP_CHROMA_420, none, "odd"},
    {"float_ssim", 854, 480, 8, VMAFHIP_CHROMA_420, none, "scale 2"},
    {"float_ssim", 1280, 720, 12, VMAFHIP_CHROMA_420, none, "scale 3"},
    {"float_ssim", 1921, 1081, 8, VMAFHIP_CHROMA_400, none, "odd 1080p, scale 4"},
    {"float_ssim", 3840, 2160, 16, VMAFHIP_CHROMA_420, none, "4K 16-bit, scale 8"},
    {"float_ssim", 576, 324, 8, VMAFHIP_CHROMA_420,
     [](VmafHipSettings *s) { s->ssim.scale = 3; }, "forced scale 3"},
    {"adm", 33, 33, 8, VMAFHIP_CHROMA_420, none, "minimum 33x33"},
    {"adm", 37, 33, 10, VMAFHIP_CHROMA_420, none, "37x33"},
    {"adm", 97, 61, 8, VMAFHIP_CHROMA_420, none, "odd, border mirror at scale 3"},
    {"adm", 321, 241, 12, VMAFHIP_CHROMA_420, none, "odd 12-bit"},
    {"adm", 1920, 1080, 8, VMAFHIP_CHROMA_420, none, "1080p"},
    {"adm", 1921, 1081, 10, VMAFHIP_CHROMA_420, none, "odd 1080p"},
    {"adm", 3840, 2160, 8, VMAFHIP_CHROMA_420, none, "4K: den shift 1"},
    {"adm", 640, 360, 8, VMAFHIP_CHROMA_420,
     [](VmafHipSettings *s) { s->adm.enhn_gain_limit = 1; }, "gain limit 1"},
    {"adm", 640, 360, 8, VMAFHIP_CHROMA_420,
     [](VmafHipSettings *s) { s->adm.enhn_gain_limit = 1.2; }, "gain limit 1.2"},
    {"adm", 640, 360, 10, VMAFHIP_CHROMA_420,
     [](VmafHipSettings *s) { s->adm.skip_scale0 = 1; }, "skip scale 0"},
    {"adm", 640, 360, 8, VMAFHIP_CHROMA_420,
     [](VmafHipSettings *s) { s->adm.skip_aim = 1; }, "skip aim"},
    {"adm", 640, 360, 8, VMAFHIP_CHROMA_420,
     [](VmafHipSettings *s) { s->adm.csf_mode = 3; s->adm.ref_display_height = 2160; }, "csf mode 3, 2160"},
    {"adm", 640, 360, 12, VMAFHIP_CHROMA_420,
     [](VmafHipSettings *s) { s->adm.norm_view_dist = 5; }, "view distance 5"},
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

FrameView view_of(const Geometry &g, const VmafHipPicture &r, const VmafHipPicture &d, int planes)
{
    FrameView f;
    for (int p = 0; p < planes; p++) {
        f.ref[p] = PlaneView{static_cast<const uint8_t *>(r.data[p]), r.stride[p], g.scored_w(p), g.scored_h(p)};
        f.dis[p] = PlaneView{static_cast<const uint8_t *>(d.data[p]), d.stride[p], g.scored_w(p), g.scored_h(p)};
    }
    return f;
}

int compare(const char *what, const FrameAccum &cpu, const FrameAccum &gpu, const Metrics &m, double ssim_n)
{
    int bad = 0;
    auto check = [&](const char *name, long double a, long double b, bool exact) {
        const bool ok = exact ? a == b : std::fabs(static_cast<double>(a - b)) <= 1e-12 * ssim_n + 1e-300;
        if (!ok) {
            std::printf("  MISMATCH %s %s: cpu %.17Lg gpu %.17Lg\n", what, name, a, b);
            bad++;
        }
    };
    check("max_sample", cpu.max_sample, gpu.max_sample, true);
    if (m.psnr)
        for (int p = 0; p < 3; p++)
            check("psnr.sse", cpu.psnr.sse[p], gpu.psnr.sse[p], true);
    if (m.ssim) {
        check("ssim.sum", cpu.ssim.ssim, gpu.ssim.ssim, false);
        check("ssim.l", cpu.ssim.l, gpu.ssim.l, false);
        check("ssim.c", cpu.ssim.c, gpu.ssim.c, false);
        check("ssim.s", cpu.ssim.s, gpu.ssim.s, false);
    }
    if (m.adm)
        for (int s = 0; s < 4; s++)
            for (int o = 0; o < 3; o++) {
                char name[64];
                std::snprintf(name, sizeof name, "adm.num[%d][%d]", s, o);
                check(name, cpu.adm.num[s][o], gpu.adm.num[s][o], true);
                std::snprintf(name, sizeof name, "adm.den[%d][%d]", s, o);
                check(name, cpu.adm.den[s][o], gpu.adm.den[s][o], true);
                std::snprintf(name, sizeof name, "adm.aim[%d][%d]", s, o);
                check(name, cpu.adm.aim[s][o], gpu.adm.aim[s][o], true);
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
            std::fprintf(stderr, "usage: %s [--test=psnr|float_ssim|adm] [--seed=N] [--bench]\n", argv[0]);
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
        if (!only.empty() && only != c.feature)
            continue;
        VmafHipSettings s = testfx::settings(
            c.w, c.h, c.bpc, c.chroma,
            !std::strcmp(c.feature, "psnr")  ? VMAFHIP_FEATURE_PSNR
            : !std::strcmp(c.feature, "adm") ? VMAFHIP_FEATURE_ADM
                                             : VMAFHIP_FEATURE_FLOAT_SSIM);
        s.queue_depth = 1;
        c.tweak(&s);
        Metrics m;
        std::vector<std::string> names, agg;
        std::string err;
        if (metrics_create(s, &m, &names, &agg, &err) < 0) {
            std::printf("FAIL %-10s %4dx%-4d %2d-bit %s: %s\n", c.feature, c.w, c.h, c.bpc, c.what, err.c_str());
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
        std::vector<uint8_t> r0, d0, r1, d1;
        VmafHipPicture pr0{}, pd0{}, pr1{}, pd1{};
        make_pair(m.g, rng, &r0, &d0, &pr0, &pd0); // garbage frame first
        make_pair(m.g, rng, &r1, &d1, &pr1, &pd1);
        const int planes = m.chroma_planes_read();
        FrameAccum a_cpu{}, a_gpu{}, scratch{};
        const auto t_cpu = std::chrono::steady_clock::now();
        cpu->submit(view_of(m.g, pr1, pd1, planes), &err);
        cpu->collect(true, &a_cpu, &err);
        const double cpu_ms = ms_since(t_cpu);
        gpu->submit(view_of(m.g, pr0, pd0, planes), &err);
        gpu->collect(true, &scratch, &err);
        const auto t_gpu = std::chrono::steady_clock::now();
        if (gpu->submit(view_of(m.g, pr1, pd1, planes), &err) < 0 || gpu->collect(true, &a_gpu, &err) < 0) {
            std::printf("FAIL %s: %s\n", c.what, err.c_str());
            failures++;
            continue;
        }
        const double gpu_ms = ms_since(t_gpu);
        const double n = m.ssim ? static_cast<double>(m.ssim->map_w()) * m.ssim->map_h() : 1;
        const int bad = compare(c.what, a_cpu, a_gpu, m, n);
        failures += bad != 0;
        run++;
        std::printf("%s %-10s %4dx%-4d %2d-bit %-18s", bad ? "FAIL" : "ok  ", c.feature, c.w, c.h, c.bpc, c.what);
        if (bench)
            std::printf("  cpu %8.2f ms  gpu %7.3f ms (one frame, synchronous)", cpu_ms, gpu_ms);
        std::printf("\n");
    }
    std::printf("checkgpu: %d cases, %d failed (seed %u)\n", run, failures, seed);
    return failures ? 1 : 0;
}
