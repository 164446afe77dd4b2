// Placeholder: replaced by the ADM CPU reference.
#include "extractors/adm.h"

namespace vmafhip {
void adm_cpu(const Adm &, const Geometry &, const FrameView &, AdmAccum *a, ThreadPool &) { *a = AdmAccum{}; }
} // namespace vmafhip
