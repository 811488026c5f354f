// zlib from the system (Debian: zlib1g-dev), for its CRC-32 only. libcurl already loads libz into
// every process, so this adds no library at run time.
#include <zlib.h>
