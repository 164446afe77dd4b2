// Placeholder: replaced by the ADM implementation.
#include "extractors/adm.h"

namespace vmafhip {
int Adm::check(const VmafHipAdmSettings &, const Geometry &, std::string *) { return 0; }
Adm::Adm(const VmafHipAdmSettings &, const Geometry &, const std::string &) {}
void Adm::names(std::vector<std::string> *out) const { out->push_back("integer_adm2"); }
void Adm::finish(const AdmAccum &, double *out) const { out[0] = 0; }
} // namespace vmafhip
