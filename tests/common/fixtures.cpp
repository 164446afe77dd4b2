#include "tests/common/fixtures.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "tests/common/json.h"
#include "tests/common/rcpss.h"

#ifndef VMAFHIP_FIXTURE_DIR
#error "VMAFHIP_FIXTURE_DIR must name tests/fixtures"
#endif
#ifndef VMAFHIP_GENERATED_FIXTURE_DIR
#error "VMAFHIP_GENERATED_FIXTURE_DIR must name the folder of make_large_pairs' files"
#endif

namespace testfx {

namespace {

// The features each golden holds (libvmaf's extractor names), in the order
// its run registered them: that is the order of libvmaf's log.
// Pairs with a model: libvmaf's flags for them (the model's extractors come
// first, so the order is the model's, then psnr, float_ssim).
const char ALL[] = "psnr|float_ssim|adm|vif|motion";
const char ADM_PSNR_SSIM[] = "adm|psnr|float_ssim";
const char NO_ADM[] = "psnr|float_ssim";
const char SSIM_PSNR[] = "float_ssim|psnr";
const char PSNR[] = "psnr";

Fixture make(const std::string &content, int w, int h, const std::string &pixfmt, int bpc,
             VmafHipChroma chroma, const std::string &ref, const std::string &dis, int frames,
             const char *features, const std::string &golden_suffix, bool debug)
{
    const std::string size = std::to_string(w) + "x" + std::to_string(h);
    const std::string base = content + "_" + size + "_" + pixfmt;
    Fixture f;
    f.name = base + "__" + ref + "_vs_" + dis;
    f.ref = base + "_" + ref + ".yuv";
    f.dis = base + "_" + dis + ".yuv";
    f.w = w;
    f.h = h;
    f.bpc = bpc;
    f.chroma = chroma;
    f.frames = frames;
    f.features = features;
    f.models = std::strcmp(features, ALL) ? "" : "version=vmaf_v0.6.1";
    f.golden = "golden/" + f.name + golden_suffix;
    f.debug = debug ? "golden/" + f.name + ".debug.fullprec.json" : "";
    // libvmaf's CLI made these where it can read the pair (even 4:2:x sizes).
    const auto golden_if_any = [&](const char *suffix) {
        const std::string g = "golden/" + f.name + suffix;
        return std::ifstream(path(g)).good() ? g : std::string();
    };
    f.models_golden = golden_if_any(".models.fullprec.json");
    f.bootstrap_golden = golden_if_any(".bootstrap.fullprec.json");
    for (const std::string &model : v1_models()) {
        const std::string g = golden_if_any(("." + model + ".fullprec.json").c_str());
        if (!g.empty())
            f.v1_goldens.emplace_back(model, g);
    }
    return f;
}

} // namespace

const std::vector<std::string> &v1_models()
{
    static const std::vector<std::string> names = {
        "vmaf_v1.0.16_3d0h",     "vmaf_v1.0.16_5d0h",     "vmaf_v1.0.16_1d5h_2160",
        "vmaf_v1.0.16_3d0h_2160", "vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr_5d0h",
        "vmaf_v1.0.16_hfr_1d5h_2160", "vmaf_v1.0.16_hfr_3d0h_2160"};
    return names;
}

const std::vector<Fixture> &fixtures()
{
    static const std::vector<Fixture> all = {
        make("natural1", 576, 324, "yuv420p", 8, VMAFHIP_CHROMA_420, "ref", "x264crf38", 10, ALL,
             ".fullprec.json", true),
        make("natural1", 576, 324, "yuv420p", 8, VMAFHIP_CHROMA_420, "ref", "mpeg2q28", 10, ALL,
             ".fullprec.json", true),
        make("natural1", 576, 324, "yuv420p", 8, VMAFHIP_CHROMA_420, "ref", "ref", 10, ALL,
             ".fullprec.json", true),
        make("natural2", 352, 288, "yuv420p10le", 10, VMAFHIP_CHROMA_420, "ref", "x265crf32", 6,
             ALL, ".fullprec.json", true),
        // natural1's first frames at 10 bits and in 4:2:2 and 4:4:4
        // (make_speed_fixtures.py), and in monochrome 4:2:0 (make_mono_fixtures.py)
        make("natural1", 576, 324, "yuv420p10le", 10, VMAFHIP_CHROMA_420, "ref", "x264crf38", 3,
             ALL, ".fullprec.json", true),
        make("natural1", 576, 324, "yuv422p", 8, VMAFHIP_CHROMA_422, "ref", "x264crf38", 2, ALL,
             ".fullprec.json", true),
        make("natural1", 576, 324, "yuv444p", 8, VMAFHIP_CHROMA_444, "ref", "x264crf38", 2, ALL,
             ".fullprec.json", true),
        make("mono1", 576, 324, "yuv420p", 8, VMAFHIP_CHROMA_420, "ref", "x264crf38", 4, ALL,
             ".fullprec.json", true),
        // libvmaf's SIMD paths differ from its plain C here: the C values are
        // the .cpumask63 golden; the debug golden is the AVX-512 path.
        make("natural3", 97, 61, "yuv420p", 8, VMAFHIP_CHROMA_420, "ref", "mjpegq24", 3, ALL,
             ".cpumask63.fullprec.json", false),
        make("natural4", 176, 144, "yuv422p", 8, VMAFHIP_CHROMA_422, "ref", "x264crf34", 4, ALL,
             ".fullprec.json", true),
        make("natural5", 176, 144, "yuv444p", 8, VMAFHIP_CHROMA_444, "ref", "mjpegq20", 4, ALL,
             ".fullprec.json", true),
        make("natural6", 176, 144, "gray", 8, VMAFHIP_CHROMA_400, "ref", "gblur1p2noise12", 4, ALL,
             ".fullprec.json", true),
        // ADM below 37x33 is undefined in libvmaf (out-of-bounds reads): not compared.
        make("minsize_adm", 17, 17, "yuv420p", 8, VMAFHIP_CHROMA_420, "ref", "noise20", 3, NO_ADM,
             ".fullprec.json", false),
        // The default golden here is the plain-C (= AVX-512) path; .cpumask16 is AVX2.
        make("minsize_admclean", 37, 33, "yuv420p", 8, VMAFHIP_CHROMA_420, "ref", "noise20", 3,
             ADM_PSNR_SSIM, ".fullprec.json", false),
        make("minsize_float_ssim", 11, 11, "yuv420p", 8, VMAFHIP_CHROMA_420, "ref", "noise20", 3,
             SSIM_PSNR, ".fullprec.json", false),
        make("minsize_psnr", 1, 1, "yuv420p", 8, VMAFHIP_CHROMA_420, "ref", "noise20", 3,
             PSNR, ".fullprec.json", false),
        make("minsize_psnr_chroma", 2, 2, "yuv420p", 8, VMAFHIP_CHROMA_420, "ref", "noise20", 3,
             PSNR, ".fullprec.json", false),
    };
    return all;
}

const std::vector<Fixture> &large_fixtures()
{
    static const std::vector<Fixture> all = {
        make("synth1", 1920, 1080, "yuv420p10le", 10, VMAFHIP_CHROMA_420, "ref", "dis", 3, ALL,
             ".fullprec.json", false),
        make("synth2", 3840, 2160, "yuv420p", 8, VMAFHIP_CHROMA_420, "ref", "dis", 3, ALL,
             ".fullprec.json", false),
    };
    return all;
}

const Fixture &fixture(const std::string &name)
{
    for (const auto &f : fixtures())
        if (f.name == name)
            return f;
    for (const auto &f : large_fixtures())
        if (f.name == name)
            return f;
    throw std::runtime_error("no fixture " + name);
}

Fixture pair(const std::string &name, int bpc, VmafHipChroma chroma, int frames)
{
    const size_t sep = name.find("__"), vs = name.find("_vs_", sep);
    const std::string base = name.substr(0, sep);
    // <content>_<W>x<H>_<pix_fmt>, the content may hold '_': the size is the
    // last field but one.
    const size_t size_at = base.rfind('_', base.rfind('_') - 1) + 1;
    Fixture f;
    f.name = name;
    f.ref = base + "_" + name.substr(sep + 2, vs - sep - 2) + ".yuv";
    f.dis = base + "_" + name.substr(vs + 4) + ".yuv";
    f.w = std::stoi(base.substr(size_at));
    f.h = std::stoi(base.substr(base.find('x', size_at) + 1));
    f.bpc = bpc;
    f.chroma = chroma;
    f.frames = frames;
    return f;
}

std::string path(const std::string &file)
{
    const bool generated = file.rfind("synth", 0) == 0 && file.find('/') == std::string::npos;
    const std::string dir = generated ? VMAFHIP_GENERATED_FIXTURE_DIR : VMAFHIP_FIXTURE_DIR;
    // A golden made on a processor of this one's rcpss kind replaces the
    // golden where one is kept (tests/common/rcpss.h).
    if (file.rfind("golden/", 0) == 0) {
        char kind[32];
        std::snprintf(kind, sizeof kind, "rcpss-%08x/", static_cast<unsigned>(rcpss_fingerprint()));
        const std::string variant = dir + "/golden/" + kind + file.substr(7);
        if (std::filesystem::exists(variant))
            return variant;
    }
    return dir + "/" + file;
}

Clip::Clip(const std::string &file, int w, int h, int bpc, VmafHipChroma chroma)
    : w_(w), h_(h), bps_(bpc > 8 ? 2 : 1)
{
    const int ssx = chroma == VMAFHIP_CHROMA_420 || chroma == VMAFHIP_CHROMA_422;
    const int ssy = chroma == VMAFHIP_CHROMA_420;
    planes_ = chroma == VMAFHIP_CHROMA_400 ? 1 : 3;
    cw_ = (w + ssx) >> ssx;
    ch_ = (h + ssy) >> ssy;
    frame_bytes_ = static_cast<size_t>(bps_) *
                   (static_cast<size_t>(w) * h + (planes_ - 1) * static_cast<size_t>(cw_) * ch_);
    std::ifstream in(path(file), std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot open fixture " + file);
    data_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (data_.empty() || data_.size() % frame_bytes_)
        throw std::runtime_error("fixture " + file + " is not a whole number of frames");
    frames_ = static_cast<int>(data_.size() / frame_bytes_);
}

VmafHipPicture Clip::picture(int i) const
{
    VmafHipPicture p = {};
    const uint8_t *base = frame_data(i);
    p.data[0] = base;
    p.stride[0] = static_cast<ptrdiff_t>(w_) * bps_;
    for (int c = 1; c < planes_; c++) {
        p.data[c] = base + static_cast<size_t>(bps_) *
                               (static_cast<size_t>(w_) * h_ + (c - 1) * static_cast<size_t>(cw_) * ch_);
        p.stride[c] = static_cast<ptrdiff_t>(cw_) * bps_;
    }
    return p;
}

std::map<std::string, std::vector<double>> golden_frames(const std::string &golden_file)
{
    const testjson::Value root = testjson::parse_file(path(golden_file));
    std::map<std::string, std::vector<double>> out;
    for (const auto &frame : root["frames"].arr)
        for (const auto &kv : frame["metrics"].obj)
            out[kv.first].push_back(kv.second.type == testjson::Value::Number ? kv.second.num
                                                                              : std::nan(""));
    return out;
}

bool Fixture::has(const std::string &feature) const
{
    return ("|" + features + "|").find("|" + feature + "|") != std::string::npos;
}

VmafHipSettings settings(int w, int h, int bpc, VmafHipChroma chroma, const char *features)
{
    VmafHipSettings s;
    vmafhip_default_settings(&s);
    s.width = w;
    s.height = h;
    s.bitdepth = bpc;
    s.chroma = chroma;
    s.features = features;
    s.models = nullptr;
    return s;
}

VmafHipSettings settings_for(const Fixture &f)
{
    VmafHipSettings s = settings(f.w, f.h, f.bpc, f.chroma, f.features.c_str());
    s.models = f.models.empty() ? nullptr : f.models.c_str();
    return s;
}

std::string test_name(const Fixture &f)
{
    std::string n = f.name;
    for (char &ch : n)
        if (!std::isalnum(static_cast<unsigned char>(ch)))
            ch = '_';
    return n;
}

} // namespace testfx
