#pragma once
// Splits [0, n) into `threads` contiguous chunks and runs them concurrently (the calling thread
// takes the first). The split depends only on n and threads, so two passes over the same range
// see the same chunks. The first exception thrown by any chunk is rethrown after all finish.

#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace rankscope {

/// Number of chunks parallelChunks will use for n items on `threads` threads.
inline unsigned chunkCount(size_t n, unsigned threads)
{
    return static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(threads, n)));
}

/// Calls f(begin, end, chunk) for each chunk of [0, n).
template <class F> void parallelChunks(size_t n, unsigned threads, F&& f)
{
    const unsigned chunks = chunkCount(n, threads);
    auto bounds = [&](unsigned c) { return n * c / chunks; };
    if (chunks == 1) {
        f(size_t(0), n, 0u);
        return;
    }
    std::vector<std::exception_ptr> errors(chunks);
    std::vector<std::thread> workers;
    workers.reserve(chunks - 1);
    for (unsigned c = 1; c < chunks; ++c)
        workers.emplace_back([&, c] {
            try {
                f(bounds(c), bounds(c + 1), c);
            } catch (...) {
                errors[c] = std::current_exception();
            }
        });
    try {
        f(bounds(0), bounds(1), 0u);
    } catch (...) {
        errors[0] = std::current_exception();
    }
    for (auto& w : workers)
        w.join();
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

} // namespace rankscope
