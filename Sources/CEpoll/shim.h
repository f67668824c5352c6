// epoll for the JSONRPC event loop: Swift's Glibc module does not map <sys/epoll.h>.
#include <sys/epoll.h>
