// Ten-bit samples packed three to a 32-bit word, the form in which the GPU
// backend stages 10-bit pictures from ordinary memory: two thirds of
// the bytes of 16-bit samples to write into pinned memory and to move over
// PCIe, where staging at 4K is bound by the host's memory traffic (the
// copy's read and write, and the DMA's read).
//
// A row of w samples is split into blocks of 24; block b is 8 words, word k
// holding samples 24b + k, 24b + 8 + k and 24b + 16 + k in bits 0-9, 10-19
// and 20-29 (samples past w are 0). So eight samples side by side from each
// of three 16-byte loads make eight words: no shuffle on the host, and on the
// device eight threads in a row read eight words in a row.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "kernels/hd.h"

namespace vmafhip {

constexpr int PACKED10_BLOCK_SAMPLES = 24;
constexpr int PACKED10_BLOCK_WORDS = 8;
constexpr unsigned PACKED10_MAX = 1023; ///< the largest sample the form holds

/// Words of a packed row of w samples.
VMAFHIP_HD size_t packed10_row_words(int w)
{
    return static_cast<size_t>((w + PACKED10_BLOCK_SAMPLES - 1) / PACKED10_BLOCK_SAMPLES) *
           PACKED10_BLOCK_WORDS;
}

/// Sample j of a packed row.
VMAFHIP_HD unsigned packed10_sample(const uint32_t *row, int j)
{
    const int b = j / PACKED10_BLOCK_SAMPLES, r = j % PACKED10_BLOCK_SAMPLES;
    const uint32_t word = row[b * PACKED10_BLOCK_WORDS + r % PACKED10_BLOCK_WORDS];
    return word >> (10 * (r / PACKED10_BLOCK_WORDS)) & PACKED10_MAX;
}

} // namespace vmafhip
