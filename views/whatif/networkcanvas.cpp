#include "views/whatif/networkcanvas.h"

#include "views/panes/durationformat.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace rankscope {

namespace {

constexpr double kMargin = 28; // px around the drawing
constexpr double kPick = 7;    // px: how close the pointer must be to a link

QColor colourOf(double load)
{
    const netsim::Rgb c = netsim::loadColour(load);
    return QColor(c.r, c.g, c.b);
}

double distanceToSegment(QPointF p, QPointF a, QPointF b)
{
    const QPointF d = b - a;
    const double len2 = QPointF::dotProduct(d, d);
    const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, d) / len2, 0.0, 1.0) : 0.0;
    const QPointF q = a + t * d - p;
    return std::sqrt(QPointF::dotProduct(q, q));
}

QString percent(double share)
{
    return QStringLiteral("%1 %").arg(100 * share, 0, 'f', share < 0.01 && share > 0 ? 3 : 1);
}

} // namespace

NetworkCanvas::NetworkCanvas(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(300, 200);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void NetworkCanvas::setPicture(std::shared_ptr<const netsim::NetworkPicture> picture, int index)
{
    picture_ = std::move(picture);
    index_ = picture_ && index >= 0 && size_t(index) < picture_->layouts.size() ? index : -1;
    hover_ = -1;
    selected_ = -1;
    recompute();
    update();
}

void NetworkCanvas::setMetric(Metric metric)
{
    metric_ = metric;
    update();
}

const netsim::NetworkLayout* NetworkCanvas::layout() const
{
    return index_ >= 0 ? &picture_->layouts[size_t(index_)] : nullptr;
}

void NetworkCanvas::recompute()
{
    maxContention_ = 0;
    const netsim::NetworkLayout* l = layout();
    if (!l) return;
    const auto& links = picture_->figures.links;
    const auto consider = [&](uint32_t k) {
        if (k < links.size()) maxContention_ = std::max(maxContention_, links[k].contentionNs);
    };
    for (const netsim::LayoutEdge& e : l->edges) {
        consider(e.forward);
        consider(e.backward);
        for (uint32_t k : e.links)
            consider(k);
    }
    for (const netsim::LayoutVertex& v : l->vertices)
        for (uint32_t k : v.links)
            consider(k);
}

double NetworkCanvas::loadOf(uint32_t link) const
{
    const auto& links = picture_->figures.links;
    if (link >= links.size()) return 0;
    const netsim::LinkFigures& f = links[link];
    switch (metric_) {
    case Metric::Utilisation:
        return windowLoads_.empty()         ? f.utilisation
               : link < windowLoads_.size() ? windowLoads_[link]
                                            : 0.0;
    case Metric::PeakUtilisation:
        return f.peakUtilisation;
    case Metric::Contention:
        return maxContention_ > 0 ? f.contentionNs / maxContention_ : 0;
    }
    return 0;
}

double NetworkCanvas::edgeLoad(size_t edge) const
{
    const netsim::NetworkLayout* l = layout();
    if (!l || edge >= l->edges.size()) return 0;
    const netsim::LayoutEdge& e = l->edges[edge];
    double load = std::max(loadOf(e.forward), loadOf(e.backward));
    for (uint32_t k : e.links) // (a group's edge: the busiest link it stands for)
        load = std::max(load, loadOf(k));
    return load;
}

double NetworkCanvas::vertexLoad(size_t vertex) const
{
    const netsim::NetworkLayout* l = layout();
    if (!l || vertex >= l->vertices.size()) return 0;
    double load = 0;
    for (uint32_t k : l->vertices[vertex].links)
        load = std::max(load, loadOf(k));
    return load;
}

QPointF NetworkCanvas::map(double x, double y) const
{
    const netsim::NetworkLayout* l = layout();
    const double w = std::max(1.0, width() - 2 * kMargin),
                 h = std::max(1.0, height() - 2 * kMargin);
    const double spanX = std::max(l->maxX - l->minX, 1e-9),
                 spanY = std::max(l->maxY - l->minY, 1e-9);
    double sx = w / spanX, sy = h / spanY;
    if (l->maxX == l->minX) sx = sy;
    if (l->maxY == l->minY) sy = sx;
    if (l->sameScale) sx = sy = std::min(sx, sy);
    // Centred in the widget.
    const double ox = kMargin + (w - spanX * sx) / 2, oy = kMargin + (h - spanY * sy) / 2;
    return {ox + (x - l->minX) * sx, oy + (y - l->minY) * sy};
}

QPointF NetworkCanvas::vertexPoint(size_t v) const
{
    const netsim::LayoutVertex& x = layout()->vertices[v];
    return map(x.x, x.y);
}

std::vector<std::vector<QPointF>> NetworkCanvas::edgePaths(const netsim::LayoutEdge& e) const
{
    const QPointF a = vertexPoint(e.a), b = vertexPoint(e.b);
    switch (e.shape) {
    case netsim::LayoutEdge::Shape::Line:
        return {{a, b}};
    case netsim::LayoutEdge::Shape::Stubs:
        return {{a, map(e.cx, e.cy)}, {b, map(e.dx, e.dy)}};
    case netsim::LayoutEdge::Shape::Curve: {
        const QPointF c = map(e.cx, e.cy);
        std::vector<QPointF> path;
        for (int i = 0; i <= 16; ++i) {
            const double t = i / 16.0;
            path.push_back((1 - t) * (1 - t) * a + 2 * (1 - t) * t * c + t * t * b);
        }
        return {path};
    }
    }
    return {};
}

int NetworkCanvas::edgeAt(QPointF p) const
{
    const netsim::NetworkLayout* l = layout();
    if (!l) return -1;
    int best = -1;
    double bestDistance = kPick;
    for (size_t i = 0; i < l->edges.size(); ++i)
        for (const std::vector<QPointF>& path : edgePaths(l->edges[i]))
            for (size_t k = 0; k + 1 < path.size(); ++k) {
                const double d = distanceToSegment(p, path[k], path[k + 1]);
                if (d < bestDistance) {
                    bestDistance = d;
                    best = int(i);
                }
            }
    return best;
}

QString NetworkCanvas::edgeText(size_t edge) const
{
    const netsim::NetworkLayout* l = layout();
    const auto& links = picture_->figures.links;
    const netsim::LayoutEdge& e = l->edges[edge];
    QStringList lines;
    std::vector<uint32_t> shown{e.forward, e.backward};
    if (!e.links.empty()) {
        // A group's edge: how many links it stands for, then its two busiest directions.
        shown = e.links;
        std::stable_sort(shown.begin(), shown.end(),
                         [this](uint32_t a, uint32_t b) { return loadOf(a) > loadOf(b); });
        shown.resize(std::min<size_t>(2, shown.size()));
        lines << tr("%1 links between %2 and %3; the busiest directions:")
                     .arg(e.links.size() / 2)
                     .arg(QString::fromStdString(l->vertices[e.a].name).toHtmlEscaped(),
                          QString::fromStdString(l->vertices[e.b].name).toHtmlEscaped());
    }
    for (uint32_t k : shown) {
        if (k >= links.size()) continue;
        const netsim::LinkFigures& f = links[k];
        lines << QStringLiteral("<b>%1</b> (%2)")
                     .arg(QString::fromStdString(f.info.name).toHtmlEscaped(),
                          QString::fromStdString(f.info.linkClass).toHtmlEscaped());
        lines << tr("%1 in %2 messages; busy %3: utilisation %4, peak %5; messages waited %6")
                     .arg(formatBytes(f.bytes), formatCount(f.messages), formatDuration(f.busyNs),
                          percent(f.utilisation), percent(f.peakUtilisation),
                          formatDuration(f.contentionNs));
    }
    return lines.join(QStringLiteral("<br>"));
}

void NetworkCanvas::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const netsim::NetworkLayout* l = layout();
    if (!l) {
        p.drawText(rect(), Qt::AlignCenter,
                   tr("No link figures: run a replay scenario to see what the network did"));
        return;
    }
    p.setRenderHint(QPainter::Antialiasing);
    // Idle links first, the busiest last (on top).
    std::vector<size_t> order(l->edges.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::vector<double> load(l->edges.size());
    for (size_t i = 0; i < load.size(); ++i)
        load[i] = edgeLoad(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return load[a] < load[b]; });
    const double thin = l->vertices.size() > 400 ? 0.8 : 1.4;
    for (size_t i : order) {
        QPen pen(colourOf(load[i]), thin + 5 * std::min(1.0, load[i]));
        pen.setCapStyle(Qt::RoundCap);
        if (int(i) == hover_) {
            pen.setWidthF(pen.widthF() + 3);
            pen.setColor(pen.color().darker(130));
        }
        if (int(i) == selected_) {
            // The selected link: a dark outline under its own colour.
            QPen outline(palette().color(QPalette::Text), pen.widthF() + 4);
            outline.setCapStyle(Qt::RoundCap);
            p.setPen(outline);
            for (const std::vector<QPointF>& path : edgePaths(l->edges[i]))
                p.drawPolyline(path.data(), int(path.size()));
        }
        p.setPen(pen);
        for (const std::vector<QPointF>& path : edgePaths(l->edges[i]))
            p.drawPolyline(path.data(), int(path.size()));
    }
    // Vertices: nodes as small discs, switches and routers as squares.
    const double r = l->vertices.size() > 400 ? 2.5 : l->vertices.size() > 120 ? 3.5 : 5;
    // Names where there is room: nodes up to 72, switches up to 64 (a label's place is above
    // right of its vertex, where grid and tree links do not run).
    const size_t switches = size_t(std::count_if(l->vertices.begin(), l->vertices.end(),
                                                 [](const auto& x) { return !x.node; }));
    // A group's name ("n0..n15") is longer: groups are named up to 24 of a kind.
    const bool grouped = std::any_of(l->vertices.begin(), l->vertices.end(),
                                     [](const auto& x) { return x.count > 1; });
    const bool nodeLabels = l->vertices.size() - switches <= (grouped ? 24 : 72);
    const bool switchLabels = switches <= (grouped ? 24 : 64);
    // Groups are drawn larger where there is room.
    const double groupR = l->vertices.size() > 120 ? r : r * 1.4;
    QFont small = font();
    small.setPointSizeF(std::max(6.5, small.pointSizeF() * 0.8));
    p.setFont(small);
    for (size_t v = 0; v < l->vertices.size(); ++v) {
        const QPointF c = vertexPoint(v);
        const netsim::LayoutVertex& x = l->vertices[v];
        p.setPen(QPen(palette().color(QPalette::Text), 1));
        if (x.node) {
            // A group's own links colour its fill (none: the plain background).
            p.setBrush(x.links.empty() ? palette().color(QPalette::Base) : colourOf(vertexLoad(v)));
            const double radius = x.count > 1 ? groupR : r;
            p.drawEllipse(c, radius, radius);
        } else {
            p.setBrush(x.links.empty() ? QColor(90, 90, 90) : colourOf(vertexLoad(v)));
            const double half = (x.count > 1 ? groupR : r) * 1.3;
            p.drawRect(QRectF(c.x() - half, c.y() - half, 2 * half, 2 * half));
        }
        if (x.node ? nodeLabels : switchLabels) {
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(QRectF(c.x() + r, c.y() - r - 14, 60, 14), Qt::AlignLeft | Qt::AlignBottom,
                       QString::fromStdString(x.name));
        }
    }
}

void NetworkCanvas::mouseMoveEvent(QMouseEvent* event)
{
    const int edge = edgeAt(event->position());
    if (edge != hover_) {
        hover_ = edge;
        update();
    }
    if (edge >= 0)
        QToolTip::showText(event->globalPosition().toPoint(), edgeText(size_t(edge)), this);
    else
        QToolTip::hideText();
}

void NetworkCanvas::setWindowLoads(std::vector<double> loads)
{
    windowLoads_ = std::move(loads);
    update();
}

void NetworkCanvas::setSelectedEdge(int edge)
{
    const netsim::NetworkLayout* l = layout();
    selected_ = l && edge >= 0 && size_t(edge) < l->edges.size() ? edge : -1;
    update();
}

void NetworkCanvas::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    setSelectedEdge(edgeAt(event->position()));
    emit edgeClicked(selected_);
}

void NetworkCanvas::leaveEvent(QEvent*)
{
    if (hover_ >= 0) {
        hover_ = -1;
        update();
    }
}

} // namespace rankscope
