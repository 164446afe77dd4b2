// libvmaf's subtitle log (output.c vmaf_write_output_sub): one MicroDVD
// line per scored frame, "{n}{n+1}frame: n|name: value|...|", no pooled
// values.
#include "core/output/output.h"

namespace vmafhip {

void write_sub(const VmafHipContext &c, unsigned flags, FILE *f)
{
    for (unsigned i = 0; i < c.submitted(); i++) {
        if (!log_has_frame(c, i))
            continue;
        std::fprintf(f, "{%u}{%u}frame: %u|", i, i + 1, i);
        const double *v = c.frame_values(i);
        for (size_t j = 0; j < c.names().size(); j++)
            std::fprintf(f, "%s: %s|", c.names()[j].c_str(), text_number(v[j], flags).c_str());
        std::fprintf(f, "\n");
    }
}

} // namespace vmafhip
