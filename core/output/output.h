// Log writers behind vmafhip_write_log(): libvmaf's JSON, CSV, XML and
// subtitle layouts (libvmaf output.c), one writer per format, each printing a
// flushed context to an open stream.
#pragma once

#include <cstdio>
#include <string>

#include "core/context.h"

namespace vmafhip {

/// A score as libvmaf's JSON writer prints it: "%.6f", "%.16f" when the
/// fraction is below 1e-6 (it would print as zeros), "null" when not finite;
/// "%.17g" (exact double) with VMAFHIP_LOG_FULL_PRECISION.
std::string json_number(double v, unsigned flags);

/// A score as libvmaf's CSV and XML writers print it: "%.6f" ("%.17g" with
/// VMAFHIP_LOG_FULL_PRECISION); non-finite values as "nan", "inf", "-inf".
std::string text_number(double v, unsigned flags);

/// Whether frame i is in the log: complete and scored without error. Frames
/// that n_subsample skips are left out as libvmaf leaves them out; frames
/// whose status is an error (e.g. -ERANGE) have no scores and are left out
/// too; the others keep their index.
bool log_has_frame(const VmafHipContext &c, unsigned i);

/// Scoring rate for the "fps" field: the context does not time the run yet,
/// so this is 0 (a valid number for parsers of libvmaf's logs).
double log_fps(const VmafHipContext &c);

void write_json(const VmafHipContext &c, unsigned flags, FILE *f);
void write_csv(const VmafHipContext &c, unsigned flags, FILE *f);
void write_xml(const VmafHipContext &c, unsigned flags, FILE *f);
void write_sub(const VmafHipContext &c, unsigned flags, FILE *f);

} // namespace vmafhip
