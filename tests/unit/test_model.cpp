// VMAF models (core/model/model.h) against libvmaf 3.2's goldens and its loading
// rules (docs/model.md).
//
// Map:
//   ModelGolden.*   every model output of every frame of every golden with a
//                   model, predicted from the golden's own feature values:
//                   bit-identical doubles, with the count of values compared.
//   Builtin.*       the embedded files against models/ and SHA256SUMS; each
//                   loads; loading by path equals loading by version.
//   ModelFeatures.* inputs and their extractor options (NEG, overloads),
//                   names and outputs of models and collections.
//   ModelLoad.*     malformed, unsupported or unreadable models: the error
//                   code and the message; mutated files never crash.
//
// Quick start for a new golden: make it with libvmaf's CLI (write the
// command in tests/fixtures/MANIFEST.md), then add a GoldenRun below with the
// golden's suffix, its pairs and the model specs of the command, and the
// number of values it holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "core/model/model.h"
#include "core/model/model_builtin.h"
#include "tests/common/fixtures.h"

namespace {

using vmafhip::Model;
using vmafhip::ModelFeature;
using vmafhip::ModelSpec;

const std::string models_dir = std::string(VMAFHIP_FIXTURE_DIR) + "/../../models";

// --- the feature table of these tests ---------------------------------------

// The extractor of each feature vmafhip's models read (the library takes it
// from the extractor table).
std::string extractor_of(const std::string &f)
{
    if (f == "VMAF_integer_feature_adm2_score")
        return "adm";
    if (f == "VMAF_integer_feature_motion2_score")
        return "motion";
    if (f.rfind("VMAF_integer_feature_vif_scale", 0) == 0)
        return "vif";
    if (f == "VMAF_integer_feature_adm3_score")
        return "adm";
    if (f == "VMAF_integer_feature_motion3_score")
        return "motion";
    if (f == "Cambi_feature_cambi_score")
        return "cambi";
    if (f == "Speed_chroma_feature_speed_chroma_uv_score")
        return "speed_chroma";
    if (f == "VMAF_feature_adm2_score")
        return "float_adm";
    if (f == "VMAF_feature_motion2_score")
        return "float_motion";
    if (f.rfind("VMAF_feature_vif_scale", 0) == 0)
        return "float_vif";
    return "";
}

const std::map<std::string, std::string> &log_alias()
{
    static const std::map<std::string, std::string> alias = {
        {"VMAF_integer_feature_adm2_score", "integer_adm2"},
        {"VMAF_integer_feature_motion2_score", "integer_motion2"},
        {"VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0"},
        {"VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1"},
        {"VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2"},
        {"VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3"},
        {"VMAF_integer_feature_adm3_score", "integer_adm3"},
        {"VMAF_integer_feature_motion3_score", "integer_motion3"},
        {"Cambi_feature_cambi_score", "cambi"},
        {"Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv"},
        {"VMAF_feature_adm2_score", "adm2"},
        {"VMAF_feature_motion2_score", "motion2"},
        {"VMAF_feature_vif_scale0_score", "vif_scale0"},
        {"VMAF_feature_vif_scale1_score", "vif_scale1"},
        {"VMAF_feature_vif_scale2_score", "vif_scale2"},
        {"VMAF_feature_vif_scale3_score", "vif_scale3"},
    };
    return alias;
}

// The name under which libvmaf's logs hold a feature read with these
// options (its alias plus the option suffix), where every option is one of
// the v0.6 models' (their suffixes are spelled here); "" for other options.
std::string golden_name(const ModelFeature &f)
{
    std::string n = log_alias().at(f.libvmaf_name);
    for (const auto &[option, value] : f.options) {
        if (option == "adm_enhn_gain_limit" || option == "vif_enhn_gain_limit")
            n += "_egl_" + value;
        else if (option == "motion_force_zero" && value == "true")
            n += "_force_0";
        else
            return "";
    }
    return n;
}

ModelSpec spec(const std::string &version, const std::string &name = "", bool transform = false,
               bool noclip = false, std::vector<ModelSpec::Overload> overloads = {})
{
    ModelSpec s;
    s.version = version;
    s.name = name;
    s.enable_transform = transform;
    s.disable_clip = noclip;
    s.overloads = std::move(overloads);
    return s;
}

ModelSpec path_spec(const std::string &path, const std::string &name, bool noclip = false)
{
    ModelSpec s;
    s.path = path;
    s.name = name;
    s.disable_clip = noclip;
    return s;
}

std::unique_ptr<Model> load(const ModelSpec &s)
{
    std::unique_ptr<Model> m;
    std::string msg;
    EXPECT_EQ(Model::load(s, extractor_of, &m, &msg), 0) << msg;
    return m;
}

std::string read(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << path;
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

using Golden = std::map<std::string, std::vector<double>>;

// A model's input in a golden. The VMAF v1 models set many options whose
// suffixes the extractors spell (cambi_hrs_1080_cmxv_17_vlt_0.06, ...): a
// golden of one such model holds one log name starting with the alias, and
// that is the input; the v0.6 models' names are spelled by golden_name().
const std::vector<double> *golden_input(const Golden &g, const ModelFeature &f)
{
    const std::string exact = golden_name(f);
    if (!exact.empty()) {
        const auto it = g.find(exact);
        return it == g.end() ? nullptr : &it->second;
    }
    const std::string alias = log_alias().at(f.libvmaf_name);
    const std::vector<double> *found = nullptr;
    for (const auto &[name, values] : g)
        if (name == alias || name.rfind(alias + "_", 0) == 0) {
            EXPECT_FALSE(found) << "two inputs named " << alias << "*";
            found = &values;
        }
    return found;
}

// --- ModelGolden -------------------------------------------------------------

const std::vector<std::string> even_pairs = {
    "natural1_576x324_yuv420p__ref_vs_x264crf38", "natural1_576x324_yuv420p__ref_vs_mpeg2q28",
    "natural1_576x324_yuv420p__ref_vs_ref",       "natural2_352x288_yuv420p10le__ref_vs_x265crf32",
    "natural4_176x144_yuv422p__ref_vs_x264crf34", "natural5_176x144_yuv444p__ref_vs_mjpegq20",
};

struct GoldenRun {
    std::vector<std::string> files;   ///< goldens, in tests/fixtures/golden
    std::vector<ModelSpec> models;    ///< the -m options of their command
    long values;                      ///< model outputs they hold, all frames
};

std::vector<std::string> with_suffix(const std::vector<std::string> &pairs, const std::string &suffix)
{
    std::vector<std::string> out;
    for (const std::string &p : pairs)
        out.push_back(p + suffix);
    return out;
}

// Predict every frame of every file of the run; count the values compared.
long compare_run(const GoldenRun &run)
{
    std::vector<std::unique_ptr<Model>> models;
    for (const ModelSpec &s : run.models) {
        models.push_back(load(s));
        if (!models.back())
            return 0;
    }
    long compared = 0, differ = 0;
    for (const std::string &file : run.files) {
        const auto golden = testfx::golden_frames("golden/" + file);
        const size_t frames = golden.begin()->second.size();
        for (const auto &m : models) {
            std::vector<const std::vector<double> *> in, expect;
            for (const ModelFeature &f : m->features()) {
                const std::vector<double> *values = golden_input(golden, f);
                if (!values) {
                    ADD_FAILURE() << file << " has no input " << f.libvmaf_name;
                    return 0;
                }
                in.push_back(values);
            }
            for (const std::string &o : m->output_names()) {
                const auto it = golden.find(o);
                if (it == golden.end()) {
                    ADD_FAILURE() << file << " has no " << o;
                    return 0;
                }
                expect.push_back(&it->second);
            }
            std::vector<double> x(in.size()), y(expect.size());
            for (size_t i = 0; i < frames; i++) {
                for (size_t k = 0; k < in.size(); k++)
                    x[k] = (*in[k])[i];
                m->predict(x.data(), y.data());
                for (size_t k = 0; k < y.size(); k++, compared++) {
                    const double g = (*expect[k])[i];
                    if (!same_bits(y[k], g) && differ++ < 20)
                        ADD_FAILURE() << file << " frame " << i << " " << m->output_names()[k] << ": "
                                      << std::hexfloat << y[k] << ", libvmaf " << g;
                }
            }
        }
    }
    EXPECT_EQ(differ, 0) << "of " << compared << " values";
    std::printf("%ld model outputs compared, %ld bit-identical\n", compared, compared - differ);
    return compared;
}

TEST(ModelGolden, Vmaf061)
{
    // `--model version=vmaf_v0.6.1` of every pair that has it, every code path
    GoldenRun run{with_suffix(even_pairs, ".fullprec.json"), {spec("vmaf_v0.6.1")}, 0};
    for (const char *f : {"natural3_97x61_yuv420p__ref_vs_mjpegq24.fullprec.json",
                          "natural3_97x61_yuv420p__ref_vs_mjpegq24.cpumask16.fullprec.json",
                          "natural3_97x61_yuv420p__ref_vs_mjpegq24.cpumask63.fullprec.json",
                          "natural6_176x144_gray__ref_vs_gblur1p2noise12.fullprec.json"})
        run.files.push_back(f);
    EXPECT_EQ(compare_run(run), 57);
}

TEST(ModelGolden, ThreeModels)
{
    GoldenRun run{with_suffix(even_pairs, ".models.fullprec.json"),
                  {spec("vmaf_v0.6.1", "vmaf"), spec("vmaf_4k_v0.6.1", "vmaf_4k"),
                   spec("vmaf_v0.6.1neg", "vmaf_neg")}, 0};
    EXPECT_EQ(compare_run(run), 44 * 3);
}

TEST(ModelGolden, Bootstrap)
{
    GoldenRun run{with_suffix(even_pairs, ".bootstrap.fullprec.json"), {spec("vmaf_b_v0.6.3", "vmaf_b")}, 0};
    EXPECT_EQ(compare_run(run), 44 * 25);
}

TEST(ModelGolden, ModelOptions)
{
    const std::string dir = std::string(VMAFHIP_FIXTURE_DIR) + "/models/";
    GoldenRun run{with_suffix(even_pairs, ".modelopts.fullprec.json"),
                  {spec("vmaf_v0.6.1", "", true), spec("vmaf_v0.6.1", "vmaf_noclip", false, true),
                   spec("vmaf_v0.6.1", "vmaf_t_noclip", true, true), spec("vmaf_4k_v0.6.1neg", "vmaf_4k_neg"),
                   spec("vmaf_v0.6.1", "vmaf_ov", false, false,
                        {{"adm", "adm_enhn_gain_limit", "1.2"}, {"vif", "vif_enhn_gain_limit", "1.1"}}),
                   spec("vmaf_v0.6.1neg", "vmaf_neg_ov", false, false, {{"adm", "adm_enhn_gain_limit", "1.5"}}),
                   path_spec(dir + "vmaf_v0.6.1_knots_lte.json", "vmaf_knots_lte"),
                   path_spec(dir + "vmaf_v0.6.1_poly_knots_gte.json", "vmaf_poly_knots_gte", true)}, 0};
    EXPECT_EQ(compare_run(run), 44 * 8);
}

TEST(ModelGolden, BootstrapOptions)
{
    GoldenRun run{with_suffix(even_pairs, ".bootstrapopts.fullprec.json"),
                  {spec("vmaf_b_v0.6.3", "", true), spec("vmaf_b_v0.6.3", "vmaf_b_noclip", false, true),
                   spec("vmaf_b_v0.6.3", "vmaf_b_mfz", false, false, {{"motion", "motion_force_zero", "true"}})}, 0};
    EXPECT_EQ(compare_run(run), 44 * 25 * 3);
}

TEST(ModelGolden, FloatModels)
{
    // libvmaf's four float models in one run, from its float features
    GoldenRun run{with_suffix(even_pairs, ".float.fullprec.json"),
                  {spec("vmaf_float_v0.6.1", "vmaf_float"), spec("vmaf_float_v0.6.1neg", "vmaf_float_neg"),
                   spec("vmaf_float_4k_v0.6.1", "vmaf_float_4k"), spec("vmaf_float_b_v0.6.3", "vmaf_float_b")},
                  0};
    EXPECT_EQ(compare_run(run), 44 * (3 + 25));
}

TEST(ModelGolden, VmafV1)
{
    // each v1.0.16 model alone (-m path=...:name=vmaf), every pair libvmaf
    // can run it on; mono1's SpEED chroma values are 0, so its scores depend
    // on the chroma correction
    long total = 0;
    for (const std::string &v : testfx::v1_models()) {
        GoldenRun run{{}, {spec(v)}, 0};
        long frames = 0;
        for (const testfx::Fixture &f : testfx::fixtures())
            for (const auto &[model, file] : f.v1_goldens)
                if (model == v) {
                    run.files.push_back(file.substr(std::string("golden/").size()));
                    frames += f.frames;
                }
        EXPECT_EQ(compare_run(run), frames) << v;
        total += frames;
    }
    EXPECT_EQ(total, 8 * (3 * 10 + 3 + 2 + 2 + 4) + 6 * 6);
}

// --- Builtin -----------------------------------------------------------------

// SHA-256 (FIPS 180-4), to check the embedded files independently of the build.
std::string sha256(const char *data, size_t size)
{
    static const uint32_t k[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    std::string m(data, size);
    m += '\x80';
    while (m.size() % 64 != 56)
        m += '\0';
    for (int i = 7; i >= 0; i--)
        m += static_cast<char>((static_cast<uint64_t>(size) * 8) >> (8 * i));
    auto rot = [](uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
    for (size_t b = 0; b < m.size(); b += 64) {
        uint32_t w[64];
        for (int i = 0; i < 16; i++)
            w[i] = static_cast<uint32_t>(static_cast<uint8_t>(m[b + 4 * i])) << 24 |
                   static_cast<uint32_t>(static_cast<uint8_t>(m[b + 4 * i + 1])) << 16 |
                   static_cast<uint32_t>(static_cast<uint8_t>(m[b + 4 * i + 2])) << 8 |
                   static_cast<uint32_t>(static_cast<uint8_t>(m[b + 4 * i + 3]));
        for (int i = 16; i < 64; i++)
            w[i] = w[i - 16] + (rot(w[i - 15], 7) ^ rot(w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 7] +
                   (rot(w[i - 2], 17) ^ rot(w[i - 2], 19) ^ (w[i - 2] >> 10));
        uint32_t a[8];
        std::memcpy(a, h, sizeof a);
        for (int i = 0; i < 64; i++) {
            const uint32_t t1 = a[7] + (rot(a[4], 6) ^ rot(a[4], 11) ^ rot(a[4], 25)) +
                                ((a[4] & a[5]) ^ (~a[4] & a[6])) + k[i] + w[i];
            const uint32_t t2 = (rot(a[0], 2) ^ rot(a[0], 13) ^ rot(a[0], 22)) +
                                ((a[0] & a[1]) ^ (a[0] & a[2]) ^ (a[1] & a[2]));
            std::memmove(a + 1, a, 7 * sizeof a[0]);
            a[4] += t1;
            a[0] = t1 + t2;
        }
        for (int i = 0; i < 8; i++)
            h[i] += a[i];
    }
    char hex[65];
    for (int i = 0; i < 8; i++)
        std::snprintf(hex + 8 * i, 9, "%08x", h[i]);
    return hex;
}

TEST(Builtin, Sha256OfTheTestItself)
{
    EXPECT_EQ(sha256("abc", 3), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256("", 0), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Builtin, NamesChecksumsAndFiles)
{
    std::vector<std::string> expect = {"vmaf_v0.6.1", "vmaf_4k_v0.6.1", "vmaf_v0.6.1neg",
                                       "vmaf_4k_v0.6.1neg", "vmaf_b_v0.6.3"};
    for (const std::string &v : testfx::v1_models())
        expect.push_back(v);
    for (const char *v : {"vmaf_float_v0.6.1", "vmaf_float_v0.6.1neg", "vmaf_float_4k_v0.6.1",
                          "vmaf_float_b_v0.6.3"})
        expect.push_back(v);
    EXPECT_EQ(vmafhip::builtin_models(), expect);
    std::map<std::string, std::string> sums; // file -> sha256
    std::istringstream in(read(models_dir + "/SHA256SUMS"));
    std::string sum, file;
    while (in >> sum >> file)
        sums[file] = sum;
    ASSERT_EQ(vmafhip::builtin_model_count, expect.size());
    for (size_t i = 0; i < vmafhip::builtin_model_count; i++) {
        const vmafhip::BuiltinModel &b = vmafhip::builtin_model_table[i];
        const std::string file = std::string(b.version) + ".json";
        EXPECT_EQ(sha256(b.text, b.size), sums[file]) << file;
        EXPECT_EQ(b.sha256, sums[file]) << file;
        EXPECT_EQ(std::string(b.text, b.size), read(models_dir + "/" + file)) << file;
        EXPECT_EQ(vmafhip::find_builtin_model(b.version), &b);
    }
    EXPECT_EQ(vmafhip::find_builtin_model("vmaf_float_v0.6.2"), nullptr);
}

// Every frame of the goldens as the model's input rows.
std::vector<std::vector<double>> input_rows(const Model &m, const std::vector<std::string> &goldens)
{
    std::vector<std::vector<double>> rows;
    for (const std::string &file : goldens) {
        const Golden g = testfx::golden_frames(file);
        std::vector<const std::vector<double> *> in;
        for (const ModelFeature &f : m.features()) {
            in.push_back(golden_input(g, f));
            if (!in.back()) {
                ADD_FAILURE() << file << " has no input " << f.libvmaf_name;
                return rows;
            }
        }
        for (size_t i = 0; i < in[0]->size(); i++) {
            rows.emplace_back();
            for (const auto *values : in)
                rows.back().push_back((*values)[i]);
        }
    }
    return rows;
}

TEST(Builtin, EachLoadsAndPathEqualsVersion)
{
    for (const std::string &v : vmafhip::builtin_models()) {
        const auto by_version = load(spec(v));
        const auto by_path = load(path_spec(models_dir + "/" + v + ".json", ""));
        ASSERT_TRUE(by_version && by_path) << v;
        EXPECT_EQ(by_version->name(), "vmaf");
        EXPECT_EQ(by_version->main_output(), 0);
        const bool v1 = v.rfind("vmaf_v1.0.16", 0) == 0;
        const size_t n_in = v1 ? 4 : 6;
        ASSERT_EQ(by_version->features().size(), n_in) << v;
        ASSERT_EQ(by_path->features().size(), n_in) << v;
        EXPECT_EQ(by_version->output_names(), by_path->output_names()) << v;
        std::vector<std::string> goldens;
        if (v1) {
            for (const testfx::Fixture &f : testfx::fixtures())
                for (const auto &[model, file] : f.v1_goldens)
                    if (model == v)
                        goldens.push_back(file);
        } else {
            const bool float_model = v.rfind("vmaf_float_", 0) == 0;
            for (const std::string &pair : even_pairs)
                goldens.push_back("golden/" + pair +
                                  (float_model ? ".float.fullprec.json" : ".models.fullprec.json"));
        }
        const auto frames = input_rows(*by_version, goldens);
        EXPECT_EQ(frames.size(), v1 ? (v.find("3d0h_2160") != std::string::npos ? 41u : 47u) : 44u) << v;
        for (size_t k = 0; k < n_in; k++) {
            EXPECT_EQ(by_version->features()[k].libvmaf_name, by_path->features()[k].libvmaf_name);
            EXPECT_EQ(by_version->features()[k].options, by_path->features()[k].options);
        }
        const size_t n = by_version->output_names().size();
        EXPECT_EQ(n, v == "vmaf_b_v0.6.3" || v == "vmaf_float_b_v0.6.3" ? 25u : 1u) << v;
        std::vector<double> a(n), b(n);
        for (const auto &x : frames) {
            by_version->predict(x.data(), a.data());
            by_path->predict(x.data(), b.data());
            for (size_t k = 0; k < n; k++)
                EXPECT_TRUE(same_bits(a[k], b[k])) << v << " " << by_version->output_names()[k];
        }
    }
}

// --- ModelFeatures -----------------------------------------------------------

using Options = std::vector<std::pair<std::string, std::string>>;

TEST(ModelFeatures, NegModelCarriesEnhancementGainLimits)
{
    const auto m = load(spec("vmaf_v0.6.1neg"));
    ASSERT_TRUE(m);
    const auto &f = m->features();
    ASSERT_EQ(f.size(), 6u);
    EXPECT_EQ(f[0].libvmaf_name, "VMAF_integer_feature_adm2_score");
    EXPECT_EQ(f[0].options, (Options{{"adm_enhn_gain_limit", "1"}}));
    EXPECT_EQ(f[1].libvmaf_name, "VMAF_integer_feature_motion2_score");
    EXPECT_TRUE(f[1].options.empty());
    for (int s = 0; s < 4; s++) {
        EXPECT_EQ(f[2 + s].libvmaf_name, "VMAF_integer_feature_vif_scale" + std::to_string(s) + "_score");
        EXPECT_EQ(f[2 + s].options, (Options{{"vif_enhn_gain_limit", "1"}}));
    }
    const auto plain = load(spec("vmaf_v0.6.1"));
    ASSERT_TRUE(plain);
    for (const ModelFeature &x : plain->features())
        EXPECT_TRUE(x.options.empty()) << x.libvmaf_name;
}

TEST(ModelFeatures, OverloadsReplaceOrAppendForTheirExtractor)
{
    const auto m = load(spec("vmaf_v0.6.1neg", "", false, false,
                             {{"adm", "adm_enhn_gain_limit", "1.50"},
                              {"adm", "adm_csf_mode", "3"},
                              {"vif", "vif_enhn_gain_limit", "1.0"},
                              {"psnr", "enable_chroma", "false"}, // no feature of the model: ignored
                              {"motion", "motion_force_zero", "true"}}));
    ASSERT_TRUE(m);
    const auto &f = m->features();
    // numbers as libvmaf's dictionary stores them ("%g" of the float)
    EXPECT_EQ(f[0].options, (Options{{"adm_enhn_gain_limit", "1.5"}, {"adm_csf_mode", "3"}}));
    EXPECT_EQ(f[1].options, (Options{{"motion_force_zero", "true"}}));
    EXPECT_EQ(f[2].options, (Options{{"vif_enhn_gain_limit", "1"}}));
}

TEST(ModelFeatures, NamesAndCollectionOutputs)
{
    const auto plain = load(spec("vmaf_4k_v0.6.1", "hd"));
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->name(), "hd");
    EXPECT_EQ(plain->output_names(), std::vector<std::string>{"hd"});

    const auto b = load(spec("vmaf_b_v0.6.3"));
    ASSERT_TRUE(b);
    std::vector<std::string> expect = {"vmaf"};
    for (int i = 1; i <= 20; i++) {
        char n[16];
        std::snprintf(n, sizeof n, "vmaf_%04d", i);
        expect.push_back(n);
    }
    for (const char *s : {"vmaf_bagging", "vmaf_stddev", "vmaf_ci_p95_lo", "vmaf_ci_p95_hi"})
        expect.push_back(s);
    EXPECT_EQ(b->output_names(), expect);
    EXPECT_EQ(b->main_output(), 0);
    EXPECT_EQ(b->features().size(), 6u); // the 21 models read the same features
}

// --- ModelLoad: errors ---------------------------------------------------------

std::string base_text() { return read(models_dir + "/vmaf_v0.6.1.json"); }

// s with the first `from` after its first "model_dict" (anywhere when
// `anywhere`) replaced by `to`.
std::string replaced(std::string s, const std::string &from, const std::string &to, bool anywhere = false)
{
    const size_t at = s.find(from, anywhere ? 0 : s.find("\"model_dict\""));
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        s.replace(at, from.size(), to);
    return s;
}

// Load text; expect `code` and a message holding every piece of `parts`.
void expect_error(const std::string &text, int code, const std::vector<std::string> &parts,
                  const ModelSpec &s = ModelSpec())
{
    std::unique_ptr<Model> m;
    std::string msg;
    EXPECT_EQ(Model::load_text(text, "test.json", s, extractor_of, &m, &msg), code) << msg;
    EXPECT_FALSE(m);
    EXPECT_EQ(msg.rfind("test.json: ", 0), 0u) << msg;
    for (const std::string &p : parts)
        EXPECT_NE(msg.find(p), std::string::npos) << "message: " << msg << "\nexpected in it: " << p;
}

void expect_loads(const std::string &text)
{
    std::unique_ptr<Model> m;
    std::string msg;
    EXPECT_EQ(Model::load_text(text, "test.json", ModelSpec(), extractor_of, &m, &msg), 0) << msg;
}

TEST(ModelLoad, InvalidJson)
{
    const std::string t = base_text();
    expect_error("", -EINVAL, {"invalid JSON: parse error at line 1, column 1", "unexpected end of input"});
    std::unique_ptr<Model> m;
    std::string msg;
    EXPECT_EQ(Model::load_text(t.substr(0, t.size() / 2), "cut.json", ModelSpec(), extractor_of, &m, &msg),
              -EINVAL);
    EXPECT_EQ(msg, "cut.json: invalid JSON: parse error at line 19, column 9175: syntax error while parsing "
                   "value - invalid string: missing closing quote; last read: '\"svm_type nu_svr\\nkernel_type "
                   "rbf\\ngamma...'");
    expect_error(replaced(t, "-0.3092981927591963,", "1e999,"), -EINVAL,
                 {"invalid JSON: number overflow parsing '1e999'"});
    expect_error(replaced(t, "\"C\": 4.0", "\"C\": NaN", true), -EINVAL, {"invalid JSON", "line 3"});
    expect_error(replaced(t, "\"param_dict\"", "\"model_dict\": 1, \"param_dict\"", true), -EINVAL,
                 {"at /model_dict: key given twice"});
    expect_error("[1, 2]", -EINVAL, {"at /: expected an object, found an array"});
}

// One edit of vmaf_v0.6.1.json (in its model_dict) and the message it must cause.
struct Edit {
    std::string from, to, message;
};

void expect_edit_errors(const std::vector<Edit> &edits)
{
    const std::string t = base_text();
    for (const Edit &e : edits)
        expect_error(replaced(t, e.from, e.to), -EINVAL, {e.message});
}

TEST(ModelLoad, WrongTypesAndValues)
{
    std::string many = "\"feature_names\": [";
    for (int i = 0; i < 65; i++)
        many += "\"VMAF_integer_feature_adm2_score\", ";
    expect_edit_errors({
        {"\"slopes\": [", "\"slopes\": [\"x\", ", "at /model_dict/slopes/0: expected a number, found a string"},
        {"\"norm_type\": \"linear_rescale\"", "\"norm_type\": 1",
         "at /model_dict/norm_type: expected a string, found a number"},
        {"\"norm_type\": \"linear_rescale\"", "\"norm_type\": \"clip_0to1\"",
         "norm_type \"clip_0to1\" is not supported (accepted: linear_rescale, none)"},
        {"\"LIBSVMNUSVR\"", "\"LIBSVMEPSSVR\"",
         "at /model_dict/model_type: model_type \"LIBSVMEPSSVR\" is not supported (accepted: LIBSVMNUSVR, "
         "BOOTSTRAP_LIBSVMNUSVR, RESIDUEBOOTSTRAP_LIBSVMNUSVR)"},
        {"-0.3092981927591963,", "", "/model_dict/intercepts: 6 values for 6 features"},
        {"\"score_clip\": [\n", "\"score_clip\": [1000, \n", "/model_dict/score_clip: score_clip is [min, max]"},
        {"\"p2\": -0.00705305,", "\"p2\": \"x\",", "/model_dict/score_transform/p2: expected a number"},
        {"\"out_gte_in\": \"true\"", "\"out_gte_in\": \"yes\"",
         "/model_dict/score_transform/out_gte_in: \"yes\" is not \"true\" or \"false\""},
        {"\"p2\": -0.00705305,", "\"knots\": [[0, 0], [50, 60], [40, 70]],",
         "/model_dict/score_transform/knots/2: knots need rising x and non-falling y"},
        {"\"p2\": -0.00705305,", "\"knots\": [[0, 0]],", "1 knots; 2 to 10 are accepted"},
        {"\"model_type\"", "\"chroma_correction_parameter\": 1.0, \"model_type\"",
         "at /model_dict/chroma_correction_parameter: the chroma correction reads a feature whose "
         "name contains \"adm3\", and the model has none"},
        {"\"model_type\"", "\"chroma_correction_parameter\": \"120\", \"model_type\"",
         "at /model_dict/chroma_correction_parameter: expected a number, found a string"},
        {"\"model_type\"", "\"feature_opts_dicts\": [{}], \"model_type\"",
         "/model_dict/feature_opts_dicts: 1 option objects for 6 features"},
        {"\"model_type\"", "\"feature_opts_dicts\": [{\"a\": []}, {}, {}, {}, {}, {}], \"model_type\"",
         "/model_dict/feature_opts_dicts/0/a: expected a number, true/false or a string"},
        {"\"feature_names\": [", many, "71 features; 1 to 64 are accepted"},
    });
}

// The chroma correction of the v1 models (docs/model.md §3): what libvmaf
// 3.2 leaves undefined or scores nothing with is refused.
TEST(ModelLoad, ChromaCorrection)
{
    const std::string t = read(models_dir + "/vmaf_v1.0.16_3d0h.json");
    const std::string at = "at /model_dict/";
    expect_error(replaced(t, "\"chroma_correction_parameter\": 120.0", "\"chroma_correction_parameter\": 0"),
                 -EINVAL, {at + "chroma_correction_parameter: 0 gives no score in libvmaf 3.2; a non-zero "
                                "number is accepted"});
    expect_error(replaced(t, "\"chroma_correction_parameter\": 120.0", "\"chroma_correction_parameter\": null"),
                 -EINVAL, {at + "chroma_correction_parameter: expected a number, found null"});
    expect_error(replaced(t, "\"Speed_chroma_feature_speed_chroma_uv_score\"",
                          "\"VMAF_integer_feature_adm2_score\""),
                 -EINVAL, {at + "chroma_correction_parameter: the chroma correction reads a feature whose "
                                "name contains \"speed_chroma\", and the model has none"});
    expect_error(replaced(t, "\"VMAF_integer_feature_motion3_score\"", "\"VMAF_integer_feature_adm3_score\""),
                 -EINVAL, {at + "feature_names/3: a second feature name containing \"adm3\": "
                                "chroma_correction_parameter needs exactly one"});
    // any other number is taken; without the key there is no correction
    expect_loads(replaced(t, "\"chroma_correction_parameter\": 120.0", "\"chroma_correction_parameter\": -2e300"));
    expect_loads(replaced(t, ",\n        \"chroma_correction_parameter\": 120.0", ""));
}

// The correction's trigger is the SpEED value as libvmaf recovers it from
// the normalised input, (slope * x + intercept - intercept) / slope: a value
// too small to survive that counts as 0, one that survives does not.
TEST(ModelPredict, ChromaCorrectionTrigger)
{
    const auto m = load(spec("vmaf_v1.0.16_3d0h"));
    ASSERT_TRUE(m);
    ASSERT_EQ(m->features()[1].libvmaf_name, "Speed_chroma_feature_speed_chroma_uv_score");
    const double adm3 = 0.93, cambi = 1.4, motion3 = 5.8;
    double zero, tiny, small;
    double in[4] = {cambi, 0.0, adm3, motion3};
    m->predict(in, &zero);
    in[1] = 1e-30; // slope 0.0726..., intercept -0.000163...: lost in the sum
    m->predict(in, &tiny);
    in[1] = 1e-6;
    m->predict(in, &small);
    EXPECT_TRUE(same_bits(zero, tiny)) << zero << " " << tiny;
    EXPECT_FALSE(same_bits(zero, small));
    // corrected: the SpEED input becomes 120 * (1 - adm3)
    in[1] = 120.0 - adm3 * 120.0;
    double corrected;
    m->predict(in, &corrected);
    EXPECT_NEAR(zero, corrected, 1e-9);
    in[1] = 0.5;
    double other;
    m->predict(in, &other);
    EXPECT_GT(std::fabs(zero - other), 1e-3);
}

TEST(ModelLoad, StringOptionValuesReachTheExtractor)
{
    const auto m = load(spec("vmaf_v1.0.16_5d0h"));
    ASSERT_TRUE(m);
    const Options &o = m->features()[1].options;
    EXPECT_NE(std::find(o.begin(), o.end(), std::make_pair(std::string("speed_prescale_method"),
                                                           std::string("bilinear"))),
              o.end());
    EXPECT_NE(std::find(o.begin(), o.end(), std::make_pair(std::string("speed_prescale"), std::string("0.6"))),
              o.end());
}

TEST(ModelLoad, NullTermsAndKnotsAreAbsentTerms)
{
    // libvmaf 3.2 refuses these files (its reader does not consume the null);
    // vmafhip reads null as "no such term" (docs/model.md §4).
    expect_loads(replaced(base_text(), "\"p2\": -0.00705305,", "\"p2\": null, \"knots\": null,"));
}

TEST(ModelLoad, MissingKeys)
{
    expect_edit_errors({
        {"\"model_dict\"", "\"model_dict_\"",
         "neither \"model_dict\" (a model) nor \"0\", \"1\", ... (a bootstrap collection)"},
        {"\"model\": \"", "\"svm\": \"", "at /model_dict: no \"model\" (the libsvm text)"},
        {"\"norm_type\"", "\"norm\"", "no \"norm_type\""},
        {"\"model_type\"", "\"type\"", "no \"model_type\""},
        {"\"feature_names\"", "\"names\"", "no \"feature_names\""},
        {"\"slopes\"", "\"slope\"", "norm_type linear_rescale needs \"slopes\" and \"intercepts\""},
    });
}

TEST(ModelLoad, BadSvmText)
{
    const std::string at = "at /model_dict/model: libsvm text: ";
    expect_edit_errors({
        {"kernel_type rbf", "kernel_type linear",
         at + "line 2: kernel_type \"linear\" is not supported (accepted: rbf)"},
        {"svm_type nu_svr", "svm_type c_svc", at + "line 1: svm_type \"c_svc\" is not supported"},
        {"gamma 0.04\\n", "", at + "the header has no gamma"},
        {"gamma 0.04", "gamma nan", at + "line 3: gamma \"nan\" is not a finite decimal number"},
        {"total_sv 211", "total_sv 212", at + "has 211 support vectors, but total_sv is 212"},
        {"total_sv 211", "total_sv 210", at + "line 218: text after the last of the 210 support vectors"},
        {"nr_class 2", "nr_class 3", at + "line 4: nr_class \"3\" is not supported"},
        {"rho -1.33133", "rho -1.33133 2", at + "line 6: rho needs exactly one value"},
        {"\\nSV\\n", "\\nlabel 1\\nSV\\n", at + "line 7: unknown header field \"label\""},
        {"\\nSV\\n", "\\n", at + "line 7: unknown header field \"-4\""},
        {"\"model\": \"svm_type", "\"model\": \"svm_type nu_svr\", \"x\": \"",
         at + "ends before the \"SV\" line"},
        {"-4 1:0.65734273 ", "-4 7:0.65734273 ", at + "line 8: index 7 is outside 1..6"},
        {"-4 1:0.65734273 2:", "-4 2:0.65734273 1:", at + "line 8: index 1 after index 2"},
        {"-4 1:0.65734273 ", "0x4 1:0.65734273 ", at + "line 8: coefficient \"0x4\" is not a finite"},
        {"-4 1:0.65734273 ", "-4 1:inf ", at + "line 8: value \"inf\" is not a finite decimal number"},
        {"-4 1:0.65734273 ", "-4 1=0.65734273 ", at + "line 8: \"1=0.65734273\" is not index:value"},
    });
}

TEST(ModelLoad, Collections)
{
    const std::string b = read(models_dir + "/vmaf_b_v0.6.3.json");
    expect_error(replaced(b, "\"1\": {", "\"01\": {", true), -EINVAL,
                 {"at /01: the models of a collection are \"0\", \"1\", ... in order; \"1\" was expected"});
    expect_error(replaced(b, "\"1\": {", "\"one\": {", true), -EINVAL, {"at /2:", "\"1\" was expected"});
    expect_error("{\"0\": " + base_text() + "}", -EINVAL,
                 {"a bootstrap collection has sub-models \"1\", \"2\", ... after its main model \"0\""});
    expect_error("{\"0\": " + base_text() + ", \"1\": " + base_text() + "}", -EINVAL,
                 {"at /1/model_dict/model_type: the sub-models of a collection are BOOTSTRAP_LIBSVMNUSVR"});
    const size_t second = b.find("\"BOOTSTRAP_LIBSVMNUSVR\"", b.find("\"2\": {"));
    std::string mixed = b;
    mixed.replace(second, 23, "\"RESIDUEBOOTSTRAP_LIBSVMNUSVR\"");
    expect_error(mixed, -EINVAL, {"at /2/model_dict/model_type: all sub-models of a collection have the "
                                  "model_type of \"1\""});
    expect_error(replaced(b, "kernel_type rbf", "kernel_type poly"), -EINVAL,
                 {"at /0/model_dict/model: libsvm text: line 2: kernel_type \"poly\" is not supported"});
    // other keys are skipped, as libvmaf skips them
    expect_loads(replaced(b, "\"0\": {", "\"comment\": \"x\", \"0\": {", true));
}

TEST(ModelLoad, UnknownVersionFeatureOrSpec)
{
    std::unique_ptr<Model> m;
    std::string msg;
    EXPECT_EQ(Model::load(spec("vmaf_v0.6.2"), extractor_of, &m, &msg), -EINVAL);
    EXPECT_EQ(msg, "model version \"vmaf_v0.6.2\" is not a built-in model (built in: vmaf_v0.6.1, "
                   "vmaf_4k_v0.6.1, vmaf_v0.6.1neg, vmaf_4k_v0.6.1neg, vmaf_b_v0.6.3, vmaf_v1.0.16_3d0h, "
                   "vmaf_v1.0.16_5d0h, vmaf_v1.0.16_1d5h_2160, vmaf_v1.0.16_3d0h_2160, "
                   "vmaf_v1.0.16_hfr_3d0h, vmaf_v1.0.16_hfr_5d0h, vmaf_v1.0.16_hfr_1d5h_2160, "
                   "vmaf_v1.0.16_hfr_3d0h_2160, vmaf_float_v0.6.1, vmaf_float_v0.6.1neg, "
                   "vmaf_float_4k_v0.6.1, vmaf_float_b_v0.6.3; other models load with path=FILE)");
    auto no_motion = [](const std::string &f) { return f.find("motion") == std::string::npos ? extractor_of(f) : ""; };
    EXPECT_EQ(Model::load(spec("vmaf_v0.6.1"), no_motion, &m, &msg), -EINVAL);
    EXPECT_EQ(msg, "built-in model vmaf_v0.6.1: reads feature \"VMAF_integer_feature_motion2_score\", which "
                   "no vmafhip extractor provides");
    EXPECT_EQ(Model::load(ModelSpec(), extractor_of, &m, &msg), -EINVAL);
    EXPECT_NE(msg.find("names neither a version"), std::string::npos) << msg;
    EXPECT_FALSE(m);
    // version wins over path
    ModelSpec both = spec("vmaf_v0.6.1");
    both.path = "/nonexistent.json";
    EXPECT_EQ(Model::load(both, extractor_of, &m, &msg), 0) << msg;
}

TEST(ModelLoad, FileErrors)
{
    std::unique_ptr<Model> m;
    std::string msg;
    auto code = [&](const std::string &path) {
        msg.clear();
        return Model::load(path_spec(path, ""), extractor_of, &m, &msg);
    };
    EXPECT_EQ(code("/nonexistent/vmaf.json"), -ENOENT);
    EXPECT_EQ(msg, "model file \"/nonexistent/vmaf.json\": No such file or directory");
    EXPECT_EQ(code(models_dir), -EISDIR);
    EXPECT_NE(msg.find("is a directory, not a JSON model file"), std::string::npos) << msg;
    EXPECT_EQ(code(models_dir + "/vmaf_v0.6.1.json/x"), -ENOTDIR);
    EXPECT_NE(msg.find("Not a directory"), std::string::npos) << msg;

    const std::string dir = testing::TempDir();
    const std::string fifo = dir + "vmafhip_model_fifo";
    ::unlink(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(code(fifo), -EINVAL); // at once: no writer is waited for
    EXPECT_NE(msg.find("is not a regular file"), std::string::npos) << msg;
    ::unlink(fifo.c_str());

    const std::string big = dir + "vmafhip_model_big.json";
    FILE *f = std::fopen(big.c_str(), "w");
    ASSERT_TRUE(f);
    ASSERT_EQ(::ftruncate(::fileno(f), 17 << 20), 0);
    std::fclose(f);
    EXPECT_EQ(code(big), -EFBIG);
    EXPECT_NE(msg.find("is 17825792 bytes; model files up to 16777216 bytes are accepted"),
              std::string::npos) << msg;

    const std::string empty = dir + "vmafhip_model_empty.json";
    std::fclose(std::fopen(empty.c_str(), "w"));
    EXPECT_EQ(code(empty), -EINVAL);
    EXPECT_NE(msg.find("model file \"" + empty + "\": invalid JSON"), std::string::npos) << msg;

    if (::geteuid() != 0) { // root reads anything
        ASSERT_EQ(::chmod(empty.c_str(), 0), 0);
        EXPECT_EQ(code(empty), -EACCES);
        EXPECT_NE(msg.find("Permission denied"), std::string::npos) << msg;
    }
    ::unlink(empty.c_str());
    ::unlink(big.c_str());
    EXPECT_FALSE(m);
}

TEST(ModelLoad, MutatedFilesNeverCrash)
{
    // Random byte changes, cuts and splices of models and a collection:
    // every load returns 0 or an error with a message, and what loads predicts.
    std::mt19937 rng(20240611);
    // v1: string options and the chroma correction
    const std::string sources[] = {base_text(), read(models_dir + "/vmaf_v0.6.1neg.json"),
                                   read(models_dir + "/vmaf_v1.0.16_3d0h_2160.json")};
    const char bytes[] = "{}[]:,\" 0123456789.-+eE\nnulltruefalse";
    int loaded = 0, refused = 0;
    for (int i = 0; i < 3000; i++) {
        std::string t = sources[i % 3];
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; e++) {
            const size_t at = rng() % t.size();
            switch (rng() % 4) {
            case 0: t[at] = bytes[rng() % (sizeof bytes - 1)]; break;
            case 1: t.erase(at, 1 + rng() % 16); break;
            case 2: t.insert(at, 1, bytes[rng() % (sizeof bytes - 1)]); break;
            default: t.resize(at); break;
            }
            if (t.empty())
                t.assign(1, '{'); // not t = "{": GCC 12 warns falsely there in C++20 (-Wrestrict)
        }
        std::unique_ptr<Model> m;
        std::string msg;
        const int r = Model::load_text(t, "mutant", ModelSpec(), extractor_of, &m, &msg);
        if (r == 0) {
            loaded++;
            ASSERT_TRUE(m);
            std::vector<double> x(m->features().size(), 0.5), y(m->output_names().size());
            m->predict(x.data(), y.data());
        } else {
            refused++;
            EXPECT_EQ(r, -EINVAL) << msg;
            EXPECT_FALSE(msg.empty());
        }
    }
    EXPECT_GT(loaded, 0);
    EXPECT_GT(refused, 0);
}

} // namespace
