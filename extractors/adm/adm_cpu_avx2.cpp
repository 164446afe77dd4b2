// The AVX2 kernel table and the one check of the CPU that picks it.
#include "extractors/adm/adm_cpu_avx2.h"

namespace vmafhip {

const AdmKernels *adm_kernels_avx2()
{
#if defined(__x86_64__)
    using namespace adm_avx2;
    static const AdmKernels k = {
        s0_vert8,      s0_vert16, s0_hori,     s123_vert16, s123_vert32, s123_hori, decouple_s0,
        decouple_s123, masker_s0, masker_s123, den_s0,      den_s123,    cm_s0,     cm_s123,
    };
    return cpu_has_avx2() ? &k : nullptr;
#else
    return nullptr;
#endif
}

} // namespace vmafhip
