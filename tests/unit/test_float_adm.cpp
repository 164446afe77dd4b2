// float_adm tests (docs/float_adm.md).
#include <gtest/gtest.h>

#include "tests/common/float_family.h"

namespace {

TEST(FloatAdmGolden, EveryFrame)
{
    EXPECT_EQ(testfx::compare_float_goldens("float_adm", 7), 616);
    EXPECT_EQ(testfx::compare_float_goldens("float_adm=adm_enhn_gain_limit=1", 7), 616);
}

} // namespace
