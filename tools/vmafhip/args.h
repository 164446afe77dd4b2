// Command line of the vmafhip CLI: the flags of libvmaf's `vmaf` tool
// (tools/cli_parse.c) that apply here, parsed into Options, and --help.
#pragma once

#include <string>
#include <vector>

#include "vmafhip.h"

namespace cli {

struct Options {
    std::string reference, distorted;  ///< -r, -d
    int width = -1, height = -1;       ///< -w, -h; -1 = not given
    int bitdepth = -1;                 ///< -b; -1 = not given
    int chroma = -1;                   ///< -p as a VmafHipChroma; -1 = not given
    std::vector<std::string> features; ///< --feature specs in order
    std::vector<std::string> models;   ///< -m specs in order; empty = libvmaf's default model
    bool no_prediction = false;        ///< -n: features only, no model
    int subsample = 1;                 ///< --subsample: score every N-th frame
    int skip_ref = 0, skip_dist = 0;   ///< --frame_skip_ref, --frame_skip_dist
    std::string output;                ///< -o; empty = pooled summary on stdout
    VmafHipLogFormat format = VMAFHIP_LOG_FMT_XML; ///< libvmaf's default
    int threads = 0;                   ///< --threads; 0 = one per core
    int cpumask = 0;                   ///< --cpumask: instruction sets turned off
    int frame_cnt = 0;                 ///< --frame_cnt; 0 = every frame
    VmafHipBackend backend = VMAFHIP_BACKEND_AUTO;
    int device = 0;
    bool gpu_wait = false;             ///< --gpu-wait
    bool full_precision = false;
    bool quiet = false;
};

enum class Action { Run, Help, Version };

/// Parse argv into *o. @return 0 with *action set, or -1 with *err saying
/// which argument is wrong and what is accepted.
int parse_args(int argc, const char *const *argv, Options *o, Action *action, std::string *err);

/// The --help text: every flag, the built-in models, and every option of
/// every feature from vmafhip_option_info() with its default and range.
std::string help_text();

} // namespace cli
