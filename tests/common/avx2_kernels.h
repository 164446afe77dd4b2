// A test fixture for a metric's AVX2 row kernels against its plain ones.
#pragma once

#include <gtest/gtest.h>

namespace testfx {

/// A test of the AVX2 table K (k) against the plain one (plain); skipped
/// where avx2() gives none.
template <typename K, const K *(*avx2)(), const K &(*scalar)()> class Avx2Kernels : public testing::Test {
protected:
    void SetUp() override
    {
        if (!avx2())
            GTEST_SKIP() << "no AVX2 here (CPU or build)";
    }
    const K &k = avx2() ? *avx2() : scalar();
    const K &plain = scalar();
};

} // namespace testfx
