#include "whatif/netsim/linkstats.h"

#include <algorithm>
#include <numeric>

namespace rankscope::netsim {

std::vector<size_t> NetworkFigures::hottest(size_t n) const
{
    std::vector<size_t> order(links.size());
    std::iota(order.begin(), order.end(), size_t(0));
    const auto hotter = [this](size_t a, size_t b) {
        const LinkFigures &x = links[a], &y = links[b];
        if (x.contentionNs != y.contentionNs) return x.contentionNs > y.contentionNs;
        if (x.utilisation != y.utilisation) return x.utilisation > y.utilisation;
        return a < b;
    };
    n = std::min(n, order.size());
    std::partial_sort(order.begin(), order.begin() + long(n), order.end(), hotter);
    order.resize(n);
    return order;
}

std::vector<double> NetworkFigures::utilisationBetween(double fromNs, double toNs) const
{
    std::vector<double> out(links.size(), 0.0);
    constexpr size_t n = LinkRecorder::kWindows;
    if (!(toNs > fromNs) || !(windowNs > 0) || windowBusyNs.size() != links.size() * n) return out;
    // The overlap of [fromNs, toNs) with each window, as a fraction of the window.
    std::vector<double> part(n, 0.0);
    for (size_t k = 0; k < n; ++k) {
        const double a = originNs + double(k) * windowNs, b = a + windowNs;
        const double overlap = std::min(b, toNs) - std::max(a, fromNs);
        part[k] = overlap > 0 ? overlap / windowNs : 0;
    }
    const double span = toNs - fromNs;
    for (size_t l = 0; l < links.size(); ++l) {
        const double* w = &windowBusyNs[l * n];
        double busy = 0;
        for (size_t k = 0; k < n; ++k)
            busy += w[k] * part[k];
        out[l] = std::min(1.0, busy / span);
    }
    return out;
}

LinkRecorder::LinkRecorder(size_t links, size_t pointToPoint, double originNs)
    : origin_(originNs), counters_(links), windows_(links * kWindows, 0.0),
      pointToPoint_(pointToPoint)
{
    log_.reserve(pointToPoint);
}

void LinkRecorder::busySpanning(uint32_t link, double from, double to, double share)
{
    const double a = std::max(0.0, from - origin_), b = to - origin_;
    if (!(b > a)) return;
    while (b > width_ * double(kWindows))
        widen();
    const size_t i = std::min(size_t(a * perWidth_), kWindows - 1);
    const size_t j = std::min(size_t(b * perWidth_), kWindows - 1);
    if (i == j) {
        addToWindow(link, i, (b - a) * share);
        return;
    }
    addToWindow(link, i, (double(i + 1) * width_ - a) * share);
    for (size_t k = i + 1; k < j; ++k)
        addToWindow(link, k, width_ * share);
    addToWindow(link, j, (b - double(j) * width_) * share);
}

void LinkRecorder::addToWindow(uint32_t link, size_t k, double ns)
{
    Counters& c = counters_[link];
    if (c.window != k) {
        double* w = &windows_[size_t(link) * kWindows];
        if (c.window != kClosed) w[c.window] = c.open;
        c.window = uint32_t(k);
        c.open = w[k];
        w[k] = 0;
    }
    c.open += ns;
}

void LinkRecorder::closeWindows()
{
    for (size_t l = 0; l < counters_.size(); ++l) {
        Counters& c = counters_[l];
        if (c.window == kClosed) continue;
        windows_[l * kWindows + c.window] = c.open;
        c.window = kClosed;
        c.open = 0;
    }
}

void LinkRecorder::widen()
{
    constexpr size_t half = kWindows / 2;
    closeWindows();
    for (size_t base = 0; base < windows_.size(); base += kWindows) {
        double* w = &windows_[base];
        for (size_t k = 0; k < half; ++k)
            w[k] = w[2 * k] + w[2 * k + 1];
        std::fill(w + half, w + kWindows, 0.0);
    }
    width_ *= 2;
    perWidth_ = 1 / width_; // exact: a power of two
}

NetworkFigures LinkRecorder::figures(std::vector<LinkInfo> info, double runNs)
{
    NetworkFigures f;
    f.runNs = runNs;
    f.windowNs = width_;
    f.originNs = origin_;
    closeWindows();
    f.links.resize(counters_.size());
    for (size_t l = 0; l < counters_.size(); ++l) {
        LinkFigures& x = f.links[l];
        const Counters& c = counters_[l];
        if (l < info.size()) x.info = std::move(info[l]);
        x.bytes = c.bytes;
        x.messages = c.messages;
        x.busyNs = c.busy;
        x.utilisation = runNs > 0 ? c.busy / runNs : 0;
        const double* w = &windows_[l * kWindows];
        // (Shares are at most 1; summing a window's pieces may round an ulp above.)
        x.peakUtilisation = std::min(1.0, *std::max_element(w, w + kWindows) / width_);
        x.contentionNs = c.contention;
    }
    f.collectiveMessages = collective_;
    f.collectiveContentionNs = collectiveContention_;
    f.contentionNs = collectiveContention_;
    f.messages.resize(pointToPoint_);
    for (const Logged& m : log_) // (a later record of a message wins, as it would in place)
        f.messages[m.transfer] = MessageFigures{m.hops, m.transferNs, m.contentionNs};
    log_ = decltype(log_)();
    f.windowBusyNs = std::move(windows_); // (a megabyte for two thousand links: moved, not copied)
    windows_ = std::vector<double>();
    for (const MessageFigures& m : f.messages)
        f.contentionNs += m.contentionNs;
    return f;
}

} // namespace rankscope::netsim
