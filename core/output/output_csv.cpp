// libvmaf's CSV log (output.c vmaf_write_output_csv): a header
// "Frame,<name>,...," and one row "N,<value>,...," per scored frame; no
// pooled or aggregate values, as in libvmaf.
#include "core/output/output.h"

namespace vmafhip {

void write_csv(const VmafHipContext &c, unsigned flags, FILE *f)
{
    std::fprintf(f, "Frame,");
    for (const auto &name : c.names())
        std::fprintf(f, "%s,", name.c_str());
    std::fprintf(f, "\n");
    for (unsigned i = 0; i < c.submitted(); i++) {
        if (!log_has_frame(c, i))
            continue;
        std::fprintf(f, "%u,", i);
        const double *v = c.frame_values(i);
        for (size_t j = 0; j < c.names().size(); j++)
            std::fprintf(f, "%s,", text_number(v[j], flags).c_str());
        std::fprintf(f, "\n");
    }
}

} // namespace vmafhip
