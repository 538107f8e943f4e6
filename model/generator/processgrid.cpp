#include "model/generator/processgrid.h"

#include "model/trace/traceerror.h"

#include <algorithm>
#include <functional>
#include <string>

namespace rankscope {

std::vector<uint32_t> ProcessGrid::dimsCreate(uint32_t n, uint32_t ndims)
{
    if (n == 0 || ndims == 0 || ndims > kMaxDims)
        throw TraceError("cannot factor " + std::to_string(n) + " ranks into " +
                         std::to_string(ndims) + " grid dimensions");
    // Exhaustive search over non-increasing divisor tuples: tiny for ndims <= 3, and exact. Only
    // divisors of n can be factors; listing them costs O(sqrt n), where trying every integer
    // up to n would cost seconds for millions of ranks.
    std::vector<uint32_t> divisors;
    for (uint64_t f = 1; f * f <= n; ++f)
        if (n % f == 0) {
            divisors.push_back(uint32_t(f));
            if (f * f != n) divisors.push_back(uint32_t(n / f));
        }
    std::sort(divisors.begin(), divisors.end(), std::greater<>());
    std::vector<uint32_t> best, current;
    std::function<void(uint32_t, uint32_t)> search = [&](uint32_t rest, uint32_t maxFactor) {
        if (current.size() + 1 == ndims) {
            if (rest > maxFactor) return;
            current.push_back(rest);
            const bool better = best.empty() || current.front() < best.front() ||
                                (current.front() == best.front() && current.back() > best.back());
            if (better) best = current;
            current.pop_back();
            return;
        }
        for (uint32_t f : divisors) { // largest first, as before
            if (f > rest || f > maxFactor || rest % f != 0) continue;
            current.push_back(f);
            search(rest / f, f);
            current.pop_back();
        }
    };
    search(n, n);
    return best;
}

ProcessGrid::ProcessGrid(std::vector<uint32_t> dims, uint32_t periodicMask)
    : dims_(std::move(dims)), periodic_(periodicMask)
{
    if (dims_.empty() || dims_.size() > kMaxDims)
        throw TraceError("a process grid needs 1 to 3 dimensions");
    uint64_t size = 1;
    for (uint32_t d : dims_) {
        if (d == 0) throw TraceError("a process grid dimension must be at least 1");
        size *= d;
    }
    if (size > UINT32_MAX) throw TraceError("process grid too large");
    size_ = static_cast<uint32_t>(size);
}

ProcessGrid::Coords ProcessGrid::coords(uint32_t rank) const
{
    Coords c{0, 0, 0};
    for (size_t i = dims_.size(); i-- > 0;) {
        c[i] = rank % dims_[i];
        rank /= dims_[i];
    }
    return c;
}

int64_t ProcessGrid::neighbour(uint32_t rank, const Coords& offset) const
{
    const Coords c = coords(rank);
    int64_t r = 0;
    for (size_t i = 0; i < dims_.size(); ++i) {
        int64_t x = c[i] + offset[i];
        if (periodic(i)) x = ((x % int64_t(dims_[i])) + dims_[i]) % int64_t(dims_[i]);
        if (x < 0 || x >= dims_[i]) return -1;
        r = r * dims_[i] + x;
    }
    for (size_t i = dims_.size(); i < kMaxDims; ++i)
        if (offset[i] != 0) return -1;
    return r;
}

uint32_t ProcessGrid::direction(uint32_t from, uint32_t to) const
{
    const Coords a = coords(from), b = coords(to);
    uint32_t out = 0, weight = 1;
    for (size_t i = 0; i < dims_.size(); ++i, weight *= 3) {
        int64_t off = b[i] - a[i];
        const int64_t n = dims_[i];
        if (periodic(i)) {
            if (off > n / 2) off -= n;
            if (off < -(n / 2)) off += n;
        }
        out += weight * (off > 0 ? 1u : off < 0 ? 2u : 0u);
    }
    return out;
}

} // namespace rankscope
