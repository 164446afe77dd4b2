#include "base/thread_name.h"

#if defined(__linux__)
#include <pthread.h>
#endif

namespace vmafhip {

void name_this_thread(const char *name)
{
#if defined(__linux__)
    // Fails only for a name over 15 characters; ours are shorter.
    (void)pthread_setname_np(pthread_self(), name);
#else
    (void)name;
#endif
}

} // namespace vmafhip
