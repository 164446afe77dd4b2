// ciede's per-pixel arithmetic (docs/ciede.md §3-§4): a YUV sample to CIE
// L*a*b*, and the CIEDE2000 difference of two colours, in libvmaf's mix of
// float32 and double with its libm calls, so each value is libvmaf's to the
// bit.
#pragma once

namespace vmafhip {

/// A colour in CIE L*a*b*, each component rounded to float32 (libvmaf's LABColor).
struct CiedeLab {
    float l, a, b;
};

/// §3: the L*a*b* colour of a BT.709 limited-range YUV sample of bpc bits.
CiedeLab ciede_lab(double y, double u, double v, int bpc);

/// §4: CIEDE2000 from c1 to c2, with libvmaf's weights kL 0.65, kC 1, kH 4.
float ciede2000(const CiedeLab &c1, const CiedeLab &c2);

} // namespace vmafhip
