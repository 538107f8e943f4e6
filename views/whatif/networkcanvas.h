#pragma once
// Draws one network of a replay (a NetworkLayout) with its links coloured and widened by load
// (netsim::loadColour): a physical link shows the busier of its two directions. Hovering a
// link shows both directions' figures; hovering a vertex its name; clicking a link selects it
// (edgeClicked). Paints from the picture it is given (computed off the GUI thread); it only
// scales the layout to its size. The utilisation may be that of a time window
// (setWindowLoads, from NetworkFigures::utilisationBetween) instead of the whole run's.

#include "whatif/netsim/networklayout.h"

#include <QPointF>
#include <QWidget>
#include <memory>
#include <vector>

namespace rankscope {

class NetworkCanvas : public QWidget
{
    Q_OBJECT
public:
    enum class Metric
    {
        Utilisation,     ///< LinkFigures::utilisation
        PeakUtilisation, ///< LinkFigures::peakUtilisation
        Contention,      ///< LinkFigures::contentionNs over the largest of the network's
    };

    explicit NetworkCanvas(QWidget* parent = nullptr);

    /// Shows network `index` of `picture` (null: nothing).
    void setPicture(std::shared_ptr<const netsim::NetworkPicture> picture, int index);
    void setMetric(Metric metric);
    /// Per link (NetworkFigures::links order), its utilisation in the chosen time window, which
    /// the Utilisation metric then shows; empty: the whole run's.
    void setWindowLoads(std::vector<double> loads);
    /// The selected edge of the shown network (drawn outlined), or -1.
    int selectedEdge() const { return selected_; }
    void setSelectedEdge(int edge);
    Metric shownMetric() const { return metric_; }
    /// The load (0..1) drawn for edge `edge` of the shown network: the busier direction's.
    double edgeLoad(size_t edge) const;
    /// The load drawn as vertex `vertex`'s fill: the busiest of a group's own links (0: none).
    double vertexLoad(size_t vertex) const;
    /// The largest contention delay of one link direction of the shown network (ns).
    double maxContentionNs() const { return maxContention_; }
    /// The shown network's layout, or null.
    const netsim::NetworkLayout* layout() const;
    /// Where vertex `v` is drawn (widget coordinates).
    QPointF vertexPoint(size_t v) const;
    /// The edge nearest to `p` within a few pixels, or -1.
    int edgeAt(QPointF p) const;
    /// The tooltip text of edge `edge`.
    QString edgeText(size_t edge) const;

    QSize sizeHint() const override { return {900, 500}; }

signals:
    /// A click on edge `edge` of the shown network (-1: on no edge).
    void edgeClicked(int edge);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent*) override;

private:
    QPointF map(double x, double y) const;
    /// The points an edge is drawn through (a polyline; curves are sampled).
    std::vector<std::vector<QPointF>> edgePaths(const netsim::LayoutEdge& e) const;
    double loadOf(uint32_t link) const;
    void recompute();

    std::shared_ptr<const netsim::NetworkPicture> picture_;
    int index_ = -1;
    Metric metric_ = Metric::Utilisation;
    double maxContention_ = 0;
    int hover_ = -1;
    int selected_ = -1;
    std::vector<double> windowLoads_;
};

} // namespace rankscope
