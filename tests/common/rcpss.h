// The kind of the processor's SSE reciprocal estimate (rcpss). libvmaf's
// float_adm divides with it (docs/float_adm.md §6.1) and processors differ
// in its low bits, so goldens with float_adm values hold for processors of
// one kind: tests/fixtures/golden/rcpss-<fingerprint>/ keeps those made on
// other kinds (tests/fixtures/make_rcpss_goldens.sh).
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// FNV-1a over the bits of rcpss(1 + k / 4096), k < 4096 (every estimate a
/// processor gives differs in these, docs/float_adm.md §12.2); 0 where the
/// build has no SSE2 (float_adm divides exactly there).
uint32_t rcpss_fingerprint(void);

#ifdef __cplusplus
}
#endif
