// vmafhip-bench: frames per second of the library per resolution, bit depth
// and feature set, CPU against GPU, with the GPU's per-frame kernel and copy
// times, the host-to-device copy rate and the copy-bound limit.
//
// Frames come from ordinary (pageable) host memory, as an application's
// would, or with --lent from pictures the context lends (pinned on the GPU:
// what the CLI's readers and FFmpeg's upstream filters fill). fps is the median of --runs runs through the public API; the
// per-frame times come from one extra run with timing events on.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/backend.h"
#include "core/gpu/gpu_device.h"
#include "core/gpu/gpu_start.h"
#include "core/metrics.h"
#include "vmafhip.h"

using namespace vmafhip;

namespace {

struct Options {
    std::vector<std::pair<int, int>> sizes = {{576, 324}, {1920, 1080}, {3840, 2160}};
    std::vector<int> bits = {8, 10};
    std::vector<std::string> features = {"psnr", "float_ssim", "adm", "all"};
    std::vector<std::string> backends = {"cpu", "hip"};
    std::vector<int> streams = {1};
    double seconds = 2.0;
    int runs = 3;
    int depth = 0;
    int threads = 0;
    bool lent = false;
    bool startup = false;
    HipTuning tuning;
};

/// A benchmark row's work: features and models (VmafHipSettings strings,
/// static: the settings of a row keep pointing at them).
struct Workload {
    const char *name, *features, *models;
};

/// Rows besides one per extractor (vmafhip_feature_info()).
const Workload combined[] = {
    {"all", "psnr|float_ssim|adm", nullptr},
    {"vmaf", nullptr, "version=vmaf_v0.6.1"},
    {"vmaf+", "psnr|float_ssim", "version=vmaf_v0.6.1"},
    // VMAF v1: CAMBI, SpEED chroma (the chroma planes are read), ADM, motion
    {"v1", nullptr, "version=vmaf_v1.0.16_3d0h"},
    {"v1_2160", nullptr, "version=vmaf_v1.0.16_1d5h_2160"},
    // the common test conditions' set beside VMAF: MS-SSIM, PSNR-HVS,
    // CIEDE2000 (the chroma planes are read) and PSNR
    {"ctc", "float_ms_ssim|psnr_hvs|ciede|psnr", nullptr},
};

/// The row called `name`: an extractor alone (its name is the table's
/// static string), or one of combined[].
bool find_workload(const std::string &name, Workload *out)
{
    for (const Workload &w : combined)
        if (name == w.name) {
            *out = w;
            return true;
        }
    for (int i = 0; i < vmafhip_feature_count(); i++) {
        const char *feature = nullptr, *help = nullptr;
        if (vmafhip_feature_info(i, &feature, &help) == 0 && name == feature) {
            *out = {feature, feature, nullptr};
            return true;
        }
    }
    return false;
}

/// The extractors' names, comma-separated, for the usage text.
std::string extractor_names()
{
    std::string names;
    for (int i = 0; i < vmafhip_feature_count(); i++) {
        const char *feature = nullptr, *help = nullptr;
        if (vmafhip_feature_info(i, &feature, &help) == 0)
            names += (names.empty() ? "" : ", ") + std::string(feature);
    }
    return names;
}

// A few distinct 4:2:0 frame pairs with video-like structure, cycled.
struct Clip {
    std::vector<std::vector<uint8_t>> ref, dis;
    std::vector<VmafHipPicture> pr, pd;
    Clip(int w, int h, int bpc, int count)
    {
        const int bps = bpc > 8 ? 2 : 1, cw = (w + 1) / 2, ch = (h + 1) / 2;
        const size_t luma = static_cast<size_t>(w) * h * bps, chroma = static_cast<size_t>(cw) * ch * bps;
        std::mt19937 rng(7);
        const int max = (1 << bpc) - 1;
        for (int i = 0; i < count; i++) {
            ref.emplace_back(luma + 2 * chroma);
            dis.emplace_back(luma + 2 * chroma);
            for (size_t k = 0; k < (luma + 2 * chroma) / bps; k++) {
                const int x = static_cast<int>(k % w), y = static_cast<int>(k / w);
                int r = ((x + 3 * i) * 5 + y * 3) % (max + 1);
                int d = r + static_cast<int>(rng() % 9) - 4;
                d = d < 0 ? 0 : d > max ? max : d;
                if (bps == 2) {
                    reinterpret_cast<uint16_t *>(ref.back().data())[k] = static_cast<uint16_t>(r);
                    reinterpret_cast<uint16_t *>(dis.back().data())[k] = static_cast<uint16_t>(d);
                } else {
                    ref.back()[k] = static_cast<uint8_t>(r);
                    dis.back()[k] = static_cast<uint8_t>(d);
                }
            }
            for (auto *v : {&ref.back(), &dis.back()}) {
                VmafHipPicture p = {{v->data(), v->data() + luma, v->data() + luma + chroma},
                                    {static_cast<ptrdiff_t>(w) * bps, static_cast<ptrdiff_t>(cw) * bps,
                                     static_cast<ptrdiff_t>(cw) * bps}};
                (v == &ref.back() ? pr : pd).push_back(p);
            }
        }
    }
};

VmafHipSettings settings(const Options &o, int w, int h, int bpc, const std::string &feat,
                         const std::string &backend)
{
    VmafHipSettings s;
    vmafhip_default_settings(&s);
    s.width = w;
    s.height = h;
    s.bitdepth = bpc;
    Workload work;
    find_workload(feat, &work); // checked when the options were read
    s.features = work.features;
    s.models = work.models;
    s.backend = backend == "cpu" ? VMAFHIP_BACKEND_CPU : VMAFHIP_BACKEND_HIP;
    s.gpu_wait = s.backend == VMAFHIP_BACKEND_HIP; // every frame timed on the GPU
    s.queue_depth = o.depth;
    s.threads = o.threads;
    s.log_level = VMAFHIP_LOG_WARNING;
    return s;
}

// The clip's frames copied into pictures context c lends (rows packed: the
// clip's own layout), released with the object.
struct LentClip {
    std::vector<VmafHipLentPicture> lent;
    std::vector<VmafHipPicture> pr, pd;

    LentClip(VmafHipContext *c, const Clip &clip, std::string *err)
    {
        for (size_t i = 0; i < clip.ref.size(); i++)
            for (const auto *frame : {&clip.ref[i], &clip.dis[i]}) {
                VmafHipLentPicture l;
                const int ret = vmafhip_picture_borrow(c, 1, &l);
                if (ret < 0 || l.size != frame->size()) {
                    *err = std::string("no lent picture: ") + vmafhip_strerror(ret);
                    return;
                }
                lent.push_back(l);
                std::memcpy(l.data[0], frame->data(), l.size);
                const VmafHipPicture p = {{l.data[0], l.data[1], l.data[2]},
                                          {l.stride[0], l.stride[1], l.stride[2]}};
                (frame == &clip.ref[i] ? pr : pd).push_back(p);
            }
    }
    ~LentClip()
    {
        for (const auto &l : lent)
            vmafhip_picture_release(l.handle);
    }
};

// Frames per second of one context fed as fast as possible for ~seconds.
double run_fps(const VmafHipSettings &s, const Clip &own, bool lend, double seconds, std::string *err)
{
    VmafHipContext *c = nullptr;
    if (vmafhip_open(&c, &s) < 0) {
        *err = vmafhip_last_error(nullptr);
        return 0;
    }
    // The pictures to submit: the clip's, or lent copies of them.
    struct Pictures {
        std::vector<VmafHipPicture> pr, pd;
    } clip{own.pr, own.pd};
    std::unique_ptr<LentClip> lent;
    if (lend) {
        lent = std::make_unique<LentClip>(c, own, err);
        if (!err->empty()) {
            lent.reset();
            vmafhip_close(&c);
            return 0;
        }
        clip = Pictures{lent->pr, lent->pd};
    }
    double elapsed = 0;
    // warm-up frames are not timed; waiting for the last one's scores waits
    // for all of them to be collected
    const double *values;
    int n = 0;
    for (; n < 8; n++)
        vmafhip_submit(c, &clip.pd[n % clip.pd.size()], &clip.pr[n % clip.pr.size()]);
    vmafhip_frame_scores(c, static_cast<unsigned>(n - 1), 1, &values);
    const int warm = n;
    const auto t1 = std::chrono::steady_clock::now();
    do {
        for (int k = 0; k < 16; k++, n++)
            if (vmafhip_submit(c, &clip.pd[n % clip.pd.size()], &clip.pr[n % clip.pr.size()]) < 0) {
                *err = vmafhip_last_error(c);
                vmafhip_close(&c);
                return 0;
            }
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    } while (elapsed < seconds);
    vmafhip_flush(c);
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    vmafhip_close(&c);
    return (n - warm) / elapsed;
}

// Several contexts on one device, one thread each: total frames per second.
double run_streams(const VmafHipSettings &s, const Clip &clip, bool lend, double seconds, int streams,
                   std::string *err)
{
    std::vector<double> fps(static_cast<size_t>(streams));
    std::vector<std::string> errs(static_cast<size_t>(streams));
    std::vector<std::thread> t;
    for (int i = 0; i < streams; i++)
        t.emplace_back([&, i] { fps[i] = run_fps(s, clip, lend, seconds, &errs[i]); });
    double total = 0;
    for (int i = 0; i < streams; i++) {
        t[i].join();
        total += fps[i];
        if (!errs[i].empty())
            *err = errs[i];
    }
    return total;
}

// Per-frame GPU times through the internal backend with timing events.
bool gpu_timings(const VmafHipSettings &s, const Clip &clip, const HipTuning &tuning, BackendStats *st)
{
    Metrics m;
    std::string err;
    if (metrics_create(s, Logger(nullptr, nullptr, VMAFHIP_LOG_ERROR), &m, &err) < 0)
        return false;
    HipTuning t = tuning;
    t.timing = true;
    int ret = 0;
    auto b = make_hip_backend(m, s, Logger(nullptr, nullptr, VMAFHIP_LOG_ERROR), &ret, &err, t);
    if (!b)
        return false;
    const int planes = m.planes;
    std::vector<uint8_t> a(m.accum_bytes);
    unsigned submitted = 0, collected = 0;
    for (int i = 0; i < 64; i++) {
        FrameView f;
        f.index = submitted;
        const VmafHipPicture &r = clip.pr[i % clip.pr.size()], &d = clip.pd[i % clip.pd.size()];
        for (int p = 0; p < planes; p++) {
            f.ref[p] = PlaneView{static_cast<const uint8_t *>(r.data[p]), r.stride[p], m.g.scored_w(p), m.g.scored_h(p)};
            f.dis[p] = PlaneView{static_cast<const uint8_t *>(d.data[p]), d.stride[p], m.g.scored_w(p), m.g.scored_h(p)};
        }
        if (submitted - collected == static_cast<unsigned>(b->depth())) {
            b->collect(true, a.data(), &err);
            collected++;
        }
        b->submit(f, true, kNotLent, &err);
        submitted++;
    }
    while (collected < submitted) {
        b->collect(true, a.data(), &err);
        collected++;
    }
    return b->stats(st);
}

double ms_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Where the time to the first score goes, in this process, with every frame
// on the GPU (gpu_wait): the device's start, the driver's part (driver,
// device context, the check of this build's kernels: once per process), then
// per context its open (ours: memory, constants, graphs), its one frame to
// its score (submit and flush: first launches) and its close, for two
// contexts one after the other (what the second pays, every later context
// pays).
int startup(const VmafHipSettings &s, const Clip &clip)
{
    auto t0 = std::chrono::steady_clock::now();
    if (s.backend == VMAFHIP_BACKEND_HIP) {
        GpuDeviceInfo info;
        std::string err;
        if (gpu_join(s.device, nullptr, &info, &err) < 0) {
            std::printf("GPU %d: %s\n", s.device, err.c_str());
            return 1;
        }
        std::printf("GPU %d start (%s; the driver's): %.1f ms\n", s.device, info.name.c_str(),
                    ms_since(t0));
    }
    for (int k = 1; k <= 2; k++) {
        VmafHipContext *c = nullptr;
        t0 = std::chrono::steady_clock::now();
        if (vmafhip_open(&c, &s) < 0) {
            std::printf("open failed: %s\n", vmafhip_last_error(nullptr));
            return 1;
        }
        const double open_ms = ms_since(t0);
        const double *v;
        t0 = std::chrono::steady_clock::now();
        if (vmafhip_submit(c, &clip.pd[0], &clip.pr[0]) < 0 || vmafhip_flush(c) < 0 ||
            vmafhip_frame_scores(c, 0, 1, &v) < 0) {
            std::printf("scoring failed: %s\n", vmafhip_last_error(c));
            vmafhip_close(&c);
            return 1;
        }
        const double frame_ms = ms_since(t0);
        t0 = std::chrono::steady_clock::now();
        vmafhip_close(&c);
        std::printf("context %d on %s: open %.1f ms, one frame to its score %.1f ms, close %.1f ms\n",
                    k, s.backend == VMAFHIP_BACKEND_CPU ? "cpu" : "hip", open_ms, frame_ms, ms_since(t0));
    }
    return 0;
}

std::vector<std::string> split(const char *s)
{
    std::vector<std::string> out;
    std::string cur;
    for (; *s; s++)
        if (*s == ',') {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += *s;
        }
    out.push_back(cur);
    return out;
}

void usage()
{
    std::printf(
        "usage: vmafhip-bench [options]\n"
        "  --sizes WxH,...        frame sizes (default 576x324,1920x1080,3840x2160)\n"
        "  --bits 8,10,...        bit depths (default 8,10; 10 only at 1920x1080)\n"
        "  --features LIST        rows: an extractor alone (%s),\n"
        "                         all (psnr+float_ssim+adm), vmaf (model vmaf_v0.6.1), vmaf+\n"
        "                         (vmaf_v0.6.1 + psnr + float_ssim), v1 (vmaf_v1.0.16_3d0h),\n"
        "                         v1_2160 (vmaf_v1.0.16_1d5h_2160), ctc (float_ms_ssim +\n"
        "                         psnr_hvs + ciede + psnr) (default: psnr,\n"
        "                         float_ssim,adm,all)\n"
        "  --backends LIST        cpu,hip (default both)\n"
        "  --streams 1,2,4        concurrent contexts on one GPU (default 1)\n"
        "  --seconds S            time per run (default 2)\n"
        "  --runs N               runs per row; the median is reported (default 3)\n"
        "  --depth N              frames in flight (default automatic)\n"
        "  --threads N            CPU threads (default one per core)\n"
        "  --staging pinned|direct  GPU staging route (default pinned)\n"
        "  --no-pack              stage 10-bit pictures as 16-bit samples, not packed\n"
        "  --lent                 submit pictures the context lends (vmafhip_picture_borrow():\n"
        "                         pinned on the GPU, no host copy) instead of pageable ones\n"
        "  --no-graphs            launch kernels per frame instead of replaying graphs\n"
        "  --startup              instead of the table: the time to the first score, split into\n"
        "                         the GPU's start (the driver's, once per process) and each of\n"
        "                         two contexts' open (ours), first frame and close (first size,\n"
        "                         bit depth, row and backend)\n",
        extractor_names().c_str());
}

} // namespace

int main(int argc, char **argv)
{
    Options o;
    bool bits_given = false;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        auto need = [&]() {
            if (!v) {
                std::fprintf(stderr, "vmafhip-bench: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            i++;
            return v;
        };
        if (a == "--sizes") {
            o.sizes.clear();
            for (const auto &s : split(need())) {
                int w = 0, h = 0;
                if (std::sscanf(s.c_str(), "%dx%d", &w, &h) != 2 || w <= 0 || h <= 0) {
                    std::fprintf(stderr, "vmafhip-bench: bad size '%s' (expected WxH)\n", s.c_str());
                    return 2;
                }
                o.sizes.emplace_back(w, h);
            }
        } else if (a == "--bits") {
            o.bits.clear();
            bits_given = true;
            for (const auto &s : split(need()))
                o.bits.push_back(std::atoi(s.c_str()));
        } else if (a == "--features") {
            o.features = split(need());
            for (const auto &f : o.features)
                if (Workload w; !find_workload(f, &w)) {
                    std::fprintf(stderr, "vmafhip-bench: unknown row '%s'\n", f.c_str());
                    return 2;
                }
        } else if (a == "--backends") {
            o.backends = split(need());
        } else if (a == "--streams") {
            o.streams.clear();
            for (const auto &s : split(need()))
                o.streams.push_back(std::max(1, std::atoi(s.c_str())));
        } else if (a == "--seconds") {
            o.seconds = std::atof(need());
        } else if (a == "--runs") {
            o.runs = std::max(1, std::atoi(need()));
        } else if (a == "--depth") {
            o.depth = std::atoi(need());
        } else if (a == "--threads") {
            o.threads = std::atoi(need());
        } else if (a == "--staging") {
            const std::string s = need();
            o.tuning.staging = s == "direct" ? HipTuning::STAGING_DIRECT : HipTuning::STAGING_PINNED;
        } else if (a == "--startup") {
            o.startup = true;
        } else if (a == "--lent") {
            o.lent = true;
        } else if (a == "--no-graphs") {
            o.tuning.graphs = false;
        } else if (a == "--no-pack") {
            o.tuning.pack10 = false;
        } else if (a == "--help" || a == "-h") {
            usage();
            return 0;
        } else {
            std::fprintf(stderr, "vmafhip-bench: unknown option %s\n", a.c_str());
            usage();
            return 2;
        }
    }
    if (o.startup) {
        const auto &sz = o.sizes[0];
        const Clip clip(sz.first, sz.second, o.bits[0], 1);
        return startup(settings(o, sz.first, sz.second, o.bits[0], o.features[0], o.backends.back()), clip);
    }
    const bool have_gpu = vmafhip_device_count() > 0;
    double pinned_gbps = 0, pageable_gbps = 0;
    if (have_gpu) {
        std::string err;
        gpu_measure_h2d(size_t(64) << 20, true, 10, &pinned_gbps, &err);
        gpu_measure_h2d(size_t(64) << 20, false, 10, &pageable_gbps, &err);
        std::printf("host-to-device copy rate, 64 MiB: pinned %.1f GB/s, pageable %.1f GB/s\n",
                    pinned_gbps, pageable_gbps);
    }
    std::printf("%-10s %4s %-10s %-4s %3s %10s %9s %9s %9s %9s %10s %6s %8s\n", "size", "bits", "features",
                "back", "str", "fps", "kernel_ms", "h2d_ms", "host_ms", "h2d_GB/s", "copy_bound", "frac",
                "dev_MiB");
    for (const auto &sz : o.sizes)
        for (int bpc : o.bits) {
            if (!bits_given && bpc != 8 && !(sz.first == 1920 && sz.second == 1080))
                continue;
            const Clip clip(sz.first, sz.second, bpc, 4);
            for (const auto &feat : o.features)
                for (const auto &be : o.backends)
                    for (int streams : o.streams) {
                        if (be == "hip" && !have_gpu)
                            continue;
                        if (be == "cpu" && streams > 1)
                            continue;
                        const VmafHipSettings s = settings(o, sz.first, sz.second, bpc, feat, be);
                        std::vector<double> fps;
                        std::string err;
                        for (int r = 0; r < o.runs; r++)
                            fps.push_back(run_streams(s, clip, o.lent, be == "cpu" ? o.seconds / 2 : o.seconds, streams, &err));
                        std::sort(fps.begin(), fps.end());
                        const double med = fps[fps.size() / 2];
                        char size_text[32];
                        std::snprintf(size_text, sizeof size_text, "%dx%d", sz.first, sz.second);
                        std::printf("%-10s %4d %-10s %-4s %3d %10.1f", size_text, bpc, feat.c_str(), be.c_str(),
                                    streams, med);
                        BackendStats st;
                        if (be == "hip" && gpu_timings(s, clip, o.tuning, &st) && st.frames) {
                            const double bytes = static_cast<double>(st.h2d_bytes) / st.frames;
                            const double bound = pinned_gbps * 1e9 / bytes;
                            std::printf(" %9.3f %9.3f %9.3f %9.1f %10.0f %5.0f%% %8.0f", st.kernel_ms / st.frames,
                                        st.h2d_ms / st.frames, st.host_copy_ms / st.frames,
                                        bytes / (st.h2d_ms / st.frames) / 1e6, bound, 100 * med / bound,
                                        st.device_bytes / 1048576.0);
                        }
                        if (!err.empty())
                            std::printf("  error: %s", err.c_str());
                        std::printf("\n");
                        std::fflush(stdout);
                    }
        }
    return 0;
}
