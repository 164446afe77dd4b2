// libvmaf's JSON log (output.c vmaf_write_output_json), byte for byte the
// layout of tests/fixtures/golden/*.json: frames, pooled_metrics (min, max,
// mean, harmonic_mean), aggregate_metrics; null for NaN and infinities.
#include "core/output/output.h"

#include <cmath>

namespace vmafhip {

void write_json(const VmafHipContext &c, unsigned flags, FILE *f)
{
    std::fprintf(f, "{\n");
    std::fprintf(f, "  \"version\": \"%s\",\n", vmafhip_version());
    std::fprintf(f, "  \"fps\": %.2f,\n", log_fps(c));

    // libvmaf puts the separator before frame i when i > 0, which breaks the
    // JSON when frame 0 has no scores; we put it before every frame but the
    // first one written.
    std::fprintf(f, "  \"frames\": [");
    bool first = true;
    for (unsigned i = 0; i < c.submitted(); i++) {
        if (!log_has_frame(c, i))
            continue;
        std::fprintf(f, "%s    {\n", first ? "\n" : ",\n");
        first = false;
        std::fprintf(f, "      \"frameNum\": %u,\n", i);
        std::fprintf(f, "      \"metrics\": {\n");
        // libvmaf ends a frame's non-finite value (null) without a line
        // break, so the next value or the closing brace follows on its line.
        const double *v = c.frame_values(i);
        for (size_t j = 0; j < c.names().size(); j++)
            std::fprintf(f, "        \"%s\": %s%s%s", c.names()[j].c_str(),
                         json_number(v[j], flags).c_str(), j + 1 < c.names().size() ? "," : "",
                         std::isfinite(v[j]) ? "\n" : "");
        std::fprintf(f, "      }\n");
        std::fprintf(f, "    }");
    }
    std::fprintf(f, "\n  ],\n");

    // A feature with no scored frame gets an empty object, as in libvmaf.
    std::fprintf(f, "  \"pooled_metrics\": {");
    for (size_t j = 0; j < c.names().size(); j++) {
        std::fprintf(f, "%s    \"%s\": {", j ? ",\n" : "\n", c.names()[j].c_str());
        VmafHipPooled p;
        if (!context_pool(&c, static_cast<int>(j), &p))
            std::fprintf(f,
                         "\n      \"min\": %s,\n      \"max\": %s,\n      \"mean\": %s,\n"
                         "      \"harmonic_mean\": %s",
                         json_number(p.min, flags).c_str(), json_number(p.max, flags).c_str(),
                         json_number(p.mean, flags).c_str(),
                         json_number(p.harmonic_mean, flags).c_str());
        std::fprintf(f, "\n    }");
    }
    std::fprintf(f, "\n  },\n");

    std::fprintf(f, "  \"aggregate_metrics\": {");
    for (size_t j = 0; j < c.aggregate_name_ptrs.size(); j++)
        std::fprintf(f, "%s    \"%s\": %s", j ? ",\n" : "\n", c.aggregate_name_ptrs[j],
                     json_number(c.aggregate_values[j], flags).c_str());
    std::fprintf(f, "\n  }\n");
    std::fprintf(f, "}\n");
}

} // namespace vmafhip
