// null: libvmaf's null extractor (feature/null.c), which computes and writes
// nothing. libvmaf's CLI accepts `--feature null` (it exercises the
// framework), so vmafhip does too: an instance with no outputs, no
// accumulators and no work on either backend. With no other feature and no
// model the log lists no frame, as libvmaf's does.
#include "extractors/extractor.h"

namespace vmafhip {

extern const ExtractorInfo null_extractor;
extern const GpuImpl null_gpu;

namespace {

class Null final : public Extractor {
public:
    explicit Null(const ExtractorConfig &);

    static int check(const ExtractorConfig &, std::string *) { return 0; }

    void names(std::vector<std::string> *) const override {}
    size_t accum_bytes() const override { return 0; }
    void cpu(const FrameView &, void *, ThreadPool &) const override {}
    void finish(unsigned, const void *, double *) override {}
};

std::unique_ptr<Extractor> create(const ExtractorConfig &c, int *ret, std::string *msg);

void enqueue(const Extractor &, GpuStream, const GpuFrame &, const void *, void *, void *) {}

} // namespace

extern const GpuImpl null_gpu = {gpu_no_bytes, gpu_no_constants, gpu_no_bytes, enqueue};

const ExtractorInfo null_extractor = {
    .name = "null",
    .help = "libvmaf's null extractor: computes and writes nothing",
    .options = nullptr,
    .n_options = 0,
    .provides = nullptr,
    .n_provides = 0,
    .min_w = 1,
    .min_h = 1,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16),
    .max_lookahead = 0,
    .create = create,
    .gpu = VMAFHIP_GPU_IMPL(null_gpu),
};

namespace {

Null::Null(const ExtractorConfig &) : Extractor(null_extractor) {}

std::unique_ptr<Extractor> create(const ExtractorConfig &c, int *ret, std::string *msg)
{
    return create_checked<Null>(null_extractor, c, ret, msg);
}

} // namespace

} // namespace vmafhip
