// Prints this processor's rcpss fingerprint (tests/common/rcpss.h) in hex:
// the name of its golden folder, rcpss-<fingerprint>, for the filter tests
// and tests/fixtures/make_rcpss_goldens.sh.
#include <stdio.h>

#include "tests/common/rcpss.h"

int main(void)
{
    printf("%08x\n", (unsigned)rcpss_fingerprint());
    return 0;
}
