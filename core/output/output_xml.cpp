// libvmaf's XML log (output.c vmaf_write_output_xml): <VMAF version>,
// <params>, <fyi fps>, <frames>, <pooled_metrics>, <aggregate_metrics>,
// spaced as libvmaf spaces them (attributes each followed by a blank).
#include "core/output/output.h"

namespace vmafhip {

void write_xml(const VmafHipContext &c, unsigned flags, FILE *f)
{
    std::fprintf(f, "<VMAF version=\"%s\">\n", vmafhip_version());
    std::fprintf(f, "  <params qualityWidth=\"%d\" qualityHeight=\"%d\" />\n", c.settings.width,
                 c.settings.height);
    std::fprintf(f, "  <fyi fps=\"%.2f\" />\n", log_fps(c));

    std::fprintf(f, "  <frames>\n");
    for (unsigned i = 0; i < c.submitted(); i++) {
        if (!log_has_frame(c, i))
            continue;
        std::fprintf(f, "    <frame frameNum=\"%u\" ", i);
        const double *v = c.frame_values(i);
        for (size_t j = 0; j < c.names().size(); j++)
            std::fprintf(f, "%s=\"%s\" ", c.names()[j].c_str(), text_number(v[j], flags).c_str());
        std::fprintf(f, "/>\n");
    }
    std::fprintf(f, "  </frames>\n");

    std::fprintf(f, "  <pooled_metrics>\n");
    for (size_t j = 0; j < c.names().size(); j++) {
        std::fprintf(f, "    <metric name=\"%s\" ", c.names()[j].c_str());
        VmafHipPooled p;
        if (!context_pool(&c, static_cast<int>(j), &p))
            std::fprintf(f, "min=\"%s\" max=\"%s\" mean=\"%s\" harmonic_mean=\"%s\" ",
                         text_number(p.min, flags).c_str(), text_number(p.max, flags).c_str(),
                         text_number(p.mean, flags).c_str(),
                         text_number(p.harmonic_mean, flags).c_str());
        std::fprintf(f, "/>\n");
    }
    std::fprintf(f, "  </pooled_metrics>\n");

    std::fprintf(f, "  <aggregate_metrics ");
    for (size_t j = 0; j < c.aggregate_name_ptrs.size(); j++)
        std::fprintf(f, "%s=\"%s\" ", c.aggregate_name_ptrs[j],
                     text_number(c.aggregate_values[j], flags).c_str());
    std::fprintf(f, "/>\n");
    std::fprintf(f, "</VMAF>\n");
}

} // namespace vmafhip
