// The shipped fixture pairs (tests/fixtures, see MANIFEST.md there) and
// their libvmaf goldens, plus helpers to read raw .yuv clips.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "vmafhip.h"

namespace testfx {

struct Fixture {
    std::string name;     ///< golden base name: <content>_<W>x<H>_<pix_fmt>__<ref>_vs_<dis>
    std::string ref, dis; ///< .yuv files
    int w, h, bpc;
    VmafHipChroma chroma;
    int frames;
    std::string features;  ///< features the golden holds (and libvmaf defines here), a
                           ///< VmafHipSettings::features string
    std::string models;    ///< the model of the golden ("" = none), VmafHipSettings::models

    /// Whether the golden holds extractor `feature`'s outputs.
    bool has(const std::string &feature) const;
    std::string golden;    ///< the reference golden (plain-C libvmaf path), full precision
    std::string debug;     ///< debug golden (adm num/den) or "" where it is not the plain-C path
    std::string models_golden;    ///< three models in one run (.models.fullprec.json), or ""
    std::string bootstrap_golden; ///< the bootstrap model (.bootstrap.fullprec.json), or ""
    /// VMAF v1 goldens, one model each (.vmaf_v1.0.16_<variant>.fullprec.json):
    /// (built-in model name, file), for the variants libvmaf can run here.
    std::vector<std::pair<std::string, std::string>> v1_goldens;
};

/// The eight VMAF v1.0.16 built-in models, as libvmaf names them.
const std::vector<std::string> &v1_models();

/// gtest prints parameters with this (the name, not the bytes).
inline void PrintTo(const Fixture &f, std::ostream *os) { *os << f.name; }

/// The pair's name as a gtest parameter name: letters, digits and '_'.
std::string test_name(const Fixture &f);

/// All pairs. minsize_adm_17x17 is listed without ADM (undefined in libvmaf).
const std::vector<Fixture> &fixtures();
/// The large synthetic pairs (1920x1080 10-bit, 3840x2160 8-bit), made at build
/// time by tests/fixtures/make_large_pairs.cpp: not in fixtures(), whose
/// every test they would slow down.
const std::vector<Fixture> &large_fixtures();
/// The pair called name, of fixtures() or large_fixtures().
const Fixture &fixture(const std::string &name);
/// A pair of tests/fixtures outside fixtures() (its goldens are one metric's),
/// by its golden base name <content>_<W>x<H>_<pix_fmt>__<ref>_vs_<dis>: the
/// clips, size and format; no features, model or goldens.
Fixture pair(const std::string &name, int bpc, VmafHipChroma chroma, int frames);

/// Absolute path of a file in tests/fixtures (the synth* clips: in the build
/// folder, where make_large_pairs writes them); for golden/<file>, the
/// golden/rcpss-<fingerprint>/<file> made on processors of this one's kind
/// where it exists (tests/common/rcpss.h).
std::string path(const std::string &file);

/// A raw clip in FFmpeg's planar layout, loaded in memory.
class Clip {
public:
    Clip(const std::string &file, int w, int h, int bpc, VmafHipChroma chroma);
    int frames() const { return frames_; }
    /// Picture of frame i (pointers into the loaded data).
    VmafHipPicture picture(int i) const;
    size_t frame_bytes() const { return frame_bytes_; }
    const uint8_t *frame_data(int i) const { return data_.data() + i * frame_bytes_; }

private:
    std::vector<uint8_t> data_;
    int w_, h_, bps_, planes_, cw_, ch_;
    size_t frame_bytes_;
    int frames_;
};

/// Per-frame values of a golden: name -> one value per frame (NaN for null).
std::map<std::string, std::vector<double>> golden_frames(const std::string &golden_file);

/// Default settings for a frame size and format, features as given (a
/// string that must outlive the settings' use), no model.
VmafHipSettings settings(int w, int h, int bpc, VmafHipChroma chroma, const char *features);

/// Settings for a fixture pair: everything its golden holds.
VmafHipSettings settings_for(const Fixture &f);

} // namespace testfx
