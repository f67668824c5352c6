// epoll for the JSONRPC event loop: Swift's Glibc module does not map <sys/epoll.h>. Linux only.
#if defined(__linux__)
#include <sys/epoll.h>
#endif
