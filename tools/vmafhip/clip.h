// How long a clip is, and what that decides: the progress line's total and
// whether the CLI waits for the GPU's start before scoring, instead of
// letting the CPU score the frames read meanwhile (the library's default).
//
// The library starts the GPU only once a stream has lasted 20 ms, and a
// process that ends while the driver starts waits for that start; so the CPU
// phase pays off only for clips the CPU scores within those 20 ms. For any
// longer clip the process waits for the driver anyway, and the CPU's threads
// meanwhile compete with the readers and hold the stream back at the
// handover: waiting was 3-17 % faster in every comparison measured (1080p
// and 4K, 1,000-3,000 frames, H100 and H200 hosts).
#pragma once

#include "format.h"

namespace cli {

/// Frame pairs a run scores, from each input's frame count (-1: unknown):
/// each less the frames skipped at its start, the fewer of the known ones,
/// at most frame_cnt (0: no limit). -1 when nothing bounds it.
long long frames_to_score(long long ref_frames, long long dis_frames, int skip_ref, int skip_dist,
                          int frame_cnt);

/// Luma samples (frames x width x height) from which the CLI waits for the
/// GPU: about what 16 CPU threads score in the GPU's start (some 0.25 s), so
/// that a clip the CPU could finish as fast is left to it.
constexpr long long kGpuWaitSamples = 150'000'000;

/// For a clip of `frames` frames of fmt (-1: unknown, as from a pipe).
bool wait_for_gpu(long long frames, const Format &fmt);

} // namespace cli
