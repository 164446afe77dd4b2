// The extractor table: one entry per libvmaf feature extractor (psnr,
// float_ssim, adm, vif, motion), and the interface of an extractor instance.
// Everything outside extractors/ learns what exists from the table: the C API
// (options by name, help texts), the CLI, the FFmpeg filter (through the
// library), the models (which extractor provides a feature) and the tests.
// Adding a metric adds one entry and its files.
//
// Per frame, an instance turns a frame pair into exact accumulators (a POD
// block, the same bytes on the CPU and the GPU), and the host turns the
// accumulators into scores in frame order (finish). Extractors with a
// look-ahead (motion) complete some outputs only once later frames are
// known (finish_late).
#pragma once

#include <cerrno>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "base/cpu_flags.h"
#include "extractors/frame_view.h"
#include "kernels/frame.h"

namespace vmafhip {

class ThreadPool;
class Extractor;

/// Enum: one of a list of names (libvmaf's string options that take a fixed
/// set of values); the value is the name's index.
enum class OptionType { Bool, Int, Double, Enum };

/// One option, as libvmaf names it.
struct OptionSpec {
    const char *name;   ///< e.g. "adm_enhn_gain_limit"
    const char *alias;  ///< libvmaf's short name ("egl"), or nullptr
    OptionType type;
    size_t offset;      ///< of the field (int for Bool/Int/Enum, double) in the extractor's options struct
    double def, min, max;
    bool in_name;       ///< libvmaf VMAF_OPT_FLAG_FEATURE_PARAM: a non-default value renames the outputs
    const char *help;
    const char *const *choices = nullptr; ///< Enum: the names, nullptr-terminated (min 0, max their count - 1)
};

/// Option values of one instance, in the order of its OptionSpec table.
using OptionValues = std::vector<double>;

/// A feature an extractor provides: the name libvmaf's collector and model
/// files use, and the name written to logs (libvmaf's alias).
struct ProvidedFeature {
    const char *libvmaf_name; ///< e.g. "VMAF_integer_feature_adm2_score"
    const char *output_name;  ///< e.g. "integer_adm2" (options may add a suffix)
};

/// What an instance is created from.
struct ExtractorConfig {
    Geometry g;
    OptionValues options;
    std::string suffix; ///< libvmaf's name suffix of the options, e.g. "_egl_1", or ""
    unsigned cpu_flags = 0; ///< CpuFlag bits the CPU code may use (the CPU's, less the cpumask)
};

/// The kernel table of an instance's CPU code, chosen once when it is
/// created: the AVX2 table where the context's CPU flags allow AVX2 and
/// this build and CPU have one (avx2 not null), else the plain C++ table.
/// Every metric's CPU code dispatches through such a table.
template <typename Kernels>
const Kernels &choose_kernels(unsigned cpu_flags, const Kernels &plain, const Kernels *avx2)
{
    return (cpu_flags & CPU_FLAG_AVX2) && avx2 ? *avx2 : plain;
}

/// The GPU implementation of an extractor (built only with a GPU platform).
struct GpuImpl {
    /// Read-only device data shared by every frame (e.g. a lookup table):
    /// its size (0: none), and its bytes, written once into host memory
    /// when the context opens; the backend uploads them.
    size_t (*constants_bytes)(const Extractor &e);
    void (*fill_constants)(const Extractor &e, void *host);
    /// Device scratch memory one frame in flight needs.
    size_t (*workspace_bytes)(const Extractor &e);
    /// Enqueue the work of frame f on stream; add into d_accum (device,
    /// accum_bytes(), zeroed by the caller). Must not synchronise.
    void (*enqueue)(const Extractor &e, GpuStream stream, const GpuFrame &f,
                    const void *constants, void *workspace, void *d_accum);
    /// Why the device cannot give this instance the CPU's bytes on this
    /// host (the backend then refuses it, as an extractor without GPU code),
    /// or "" (nullptr: never).
    std::string (*refuse)(const Extractor &e) = nullptr;
};

/// GpuImpl members for extractors without constants or workspace.
inline size_t gpu_no_bytes(const Extractor &) { return 0; }
inline void gpu_no_constants(const Extractor &, void *) {}

/// ExtractorInfo::gpu of an entry: its GpuImpl in builds with a GPU
/// platform, nullptr otherwise (the GPU files are not built then).
#if VMAFHIP_GPU
#define VMAFHIP_GPU_IMPL(impl) (&(impl))
#else
#define VMAFHIP_GPU_IMPL(impl) nullptr
#endif

/// An option libvmaf has that vmafhip cannot honour yet: set_option() refuses
/// it, saying why, instead of calling it unknown.
struct UnsupportedOption {
    const char *name;
    const char *alias; ///< or nullptr
    const char *why;   ///< e.g. "only the default bt1886 is implemented"
};

/// One row of the extractor table.
struct ExtractorInfo {
    const char *name;                 ///< libvmaf's extractor name, e.g. "adm"
    const char *help;                 ///< one line for help texts
    const OptionSpec *options;
    int n_options;
    const ProvidedFeature *provides;  ///< features models may ask for
    int n_provides;
    int min_w, min_h;                 ///< smallest frame accepted (create() says why)
    unsigned bit_depths;              ///< accepted bits per sample, bit b set for b bits
    int max_lookahead;                ///< most frames after i that frame i's outputs need
    /// @return an instance, or nullptr with *ret (negative errno) and *msg
    ///         saying what is wrong and what is accepted.
    std::unique_ptr<Extractor> (*create)(const ExtractorConfig &c, int *ret, std::string *msg);
    const GpuImpl *gpu;               ///< nullptr without GPU support in this build
    const UnsupportedOption *unsupported = nullptr; ///< libvmaf options refused for now
    int n_unsupported = 0;
};

/// ExtractorInfo::create of entry e whose class T has a static
/// check(const ExtractorConfig &, std::string *) (0 or a negative errno) and
/// a constructor from the config: the option count, check(), the instance.
template <typename T>
std::unique_ptr<Extractor> create_checked(const ExtractorInfo &e, const ExtractorConfig &c,
                                          int *ret, std::string *msg)
{
    if (c.options.size() != static_cast<size_t>(e.n_options)) {
        *msg = std::string(e.name) + ": " + std::to_string(c.options.size()) +
               " option values given, the extractor has " + std::to_string(e.n_options);
        *ret = -EINVAL;
        return nullptr;
    }
    *ret = T::check(c, msg);
    if (*ret < 0)
        return nullptr;
    return std::make_unique<T>(c);
}

/// Bit mask of ExtractorInfo::bit_depths for one depth.
constexpr unsigned bit_depth(int bpc) { return 1u << bpc; }

class Extractor {
public:
    explicit Extractor(const ExtractorInfo &info) : info_(info) {}
    virtual ~Extractor() = default;
    Extractor(const Extractor &) = delete;
    Extractor &operator=(const Extractor &) = delete;

    const ExtractorInfo &info() const { return info_; }

    /// Per-frame outputs written by finish(), in libvmaf's order.
    virtual void names(std::vector<std::string> *out) const = 0;
    /// Per-frame outputs written by finish_late(), once the frames after it
    /// are known (libvmaf writes them at flush: they follow every name()).
    virtual void late_names(std::vector<std::string> *) const {}
    /// How many of the first late_names() libvmaf's log lists before
    /// names() (float_motion writes frame 0's motion2 with the frame's other
    /// outputs, so its column comes first); the others follow every name().
    virtual int leading_late() const { return 0; }
    /// End-of-stream outputs written by aggregate().
    virtual void aggregate_names(std::vector<std::string> *) const {}
    /// Planes of both pictures read: 1 (luma) or 3 (luma and chroma).
    virtual int planes() const { return 1; }
    /// Earlier reference pictures read (FrameView::prev_ref), 0..MAX_LOOKBEHIND.
    virtual int lookbehind() const { return 0; }
    /// Whether the distorted pictures of those frames are read too
    /// (FrameView::prev_dis; the CPU backend keeps them only then).
    virtual bool lookbehind_dis() const { return false; }
    /// Whether the chroma planes of those reference pictures are read too
    /// (FrameView::prev_ref_chroma, GpuFrame::prev_ref_chroma; planes() is
    /// then 3).
    virtual bool lookbehind_chroma() const { return false; }
    /// Later frames that finish_late() of a frame needs.
    virtual int lookahead() const { return 0; }
    /// Runs on every frame even when frames are subsampled (libvmaf's
    /// TEMPORAL flag); others run on scored frames only.
    virtual bool every_frame() const { return false; }

    /// Bytes of the per-frame accumulator block (POD, 8-byte aligned fields).
    virtual size_t accum_bytes() const = 0;
    /// CPU reference: the accumulators of frame f into accum (accum_bytes()).
    /// Frames may come in any order, and several at once from different
    /// threads, each call with a pool of its own: all a call keeps is
    /// scratch of its own while it runs.
    virtual void cpu(const FrameView &f, void *accum, ThreadPool &pool) const = 0;

    /// Scores of frame `index` from its accumulators, in names() order.
    /// Called in frame order, for each frame the extractor ran on.
    virtual void finish(unsigned index, const void *accum, double *out) = 0;
    /// late_names() values of frame `index`: called in frame order, for every
    /// frame, once frames up to index + lookahead() are finished or
    /// `frames` (the stream's final length) is known (0 while it is not).
    virtual void finish_late(unsigned /*index*/, unsigned /*frames*/, double * /*out*/) {}
    /// aggregate_names() values after the last frame.
    virtual void aggregate(double *) const {}

protected:
    const ExtractorInfo &info_;
};

/// The table, in libvmaf's registry order.
const std::vector<const ExtractorInfo *> &extractor_table();

/// The entry named `name`, or nullptr.
const ExtractorInfo *find_extractor(const std::string &name);

/// The entry providing libvmaf feature `libvmaf_name` (first in table
/// order, as libvmaf picks), or nullptr.
const ExtractorInfo *find_provider(const std::string &libvmaf_name);

/// Why instance e cannot run on the GPU backend of this build and host
/// ("<name> has no GPU implementation in this build", or GpuImpl::refuse's
/// reason after "<name> cannot run on the GPU here: "), or "".
std::string gpu_unavailable(const Extractor &e);

/// The output name of feature `libvmaf_name` of e for an instance whose
/// options add `suffix`, or "" when e does not provide it. Whether an
/// instance writes it (a debug output needs debug=true) is for the caller to
/// check against names() and late_names().
std::string provided_output_name(const ExtractorInfo &e, const std::string &libvmaf_name,
                                 const std::string &suffix);

} // namespace vmafhip
