// Placeholder: replaced by the float_ssim implementation.
#include "extractors/ssim.h"

namespace vmafhip {
int Ssim::check(const VmafHipSsimSettings &, const Geometry &, std::string *) { return 0; }
Ssim::Ssim(const VmafHipSsimSettings &s, const Geometry &g) : s_(s), g_(g), scale_(1), dec_w_(g.w), dec_h_(g.h), max_db_(0) {}
void Ssim::names(std::vector<std::string> *out) const { out->push_back("float_ssim"); }
void Ssim::finish(const SsimAccum &, double *out) const { out[0] = 0; }
} // namespace vmafhip
