#pragma once
// The network view of a replay result: the simulated network drawn (NetworkCanvas) with a
// choice of network (when the spec has several) and of what colours the links (utilisation over
// the run, peak utilisation over a time window, or contention delay), a colour legend, and a
// summary line (total contention delay, the hottest links).
// The utilisation can be that of a time window: the whole run, a window chosen with two sliders
// (in steps of the figures' windows, NetworkFigures::windowNs), or the visible range of the
// result's timeline (setTimelineRange). The figures come from NetworkFigures::utilisationBetween,
// links x windows multiplications: cheap enough for the GUI thread.
// A click on a link lists its heaviest messages (both directions, NetworkFigures::heaviest);
// choosing one emits messageChosen so the result tab selects it on the timeline.

#include "views/whatif/networkcanvas.h"

#include <QWidget>
#include <memory>

class QComboBox;
class QLabel;
class QSlider;
class QTableWidget;

namespace rankscope {

class NetworkView : public QWidget
{
    Q_OBJECT
public:
    explicit NetworkView(QWidget* parent = nullptr);

    /// Shows `picture` (null: says there is nothing to show), its first network.
    void setPicture(std::shared_ptr<const netsim::NetworkPicture> picture);
    const std::shared_ptr<const netsim::NetworkPicture>& picture() const { return picture_; }

    NetworkCanvas* canvas() const { return canvas_; }
    QComboBox* networkBox() const { return networkBox_; }
    QComboBox* metricBox() const { return metricBox_; }
    /// "Contention delay 1.2 ms in all; hottest: ..."
    QLabel* summaryLabel() const { return summary_; }

    enum class WindowMode
    {
        WholeRun, ///< the utilisation over the run
        Chosen,   ///< over the sliders' window
        Timeline, ///< over the timeline's visible range
    };
    /// "Whole run" | "Chosen window" | "Timeline's visible range" (WindowMode order).
    QComboBox* windowBox() const { return windowBox_; }
    /// The chosen window's start and end, in windows of NetworkFigures::windowNs from its origin.
    QSlider* fromSlider() const { return from_; }
    QSlider* toSlider() const { return to_; }
    /// "Window 1.2 ms - 3.4 ms"
    QLabel* windowLabel() const { return windowLabel_; }
    /// The window the utilisation is shown over (trace time, ns); [0, 0) for the whole run.
    std::pair<double, double> window() const { return window_; }
    /// The visible range of the result's timeline (trace time), followed in Timeline mode.
    void setTimelineRange(double fromNs, double toNs);

    /// The clicked link's heaviest messages. Columns: message, from rank, to rank, size,
    /// transfer time, contention delay, link.
    QTableWidget* messageTable() const { return messages_; }
    /// "Heaviest messages on sw:s0->n2 and back"
    QLabel* messageTitle() const { return messageTitle_; }
    /// Lists edge `edge`'s messages (as a click on it does; -1 clears).
    void showEdgeMessages(int edge);

signals:
    /// A message of the list was chosen (the trace's MessageId).
    void messageChosen(quint32 message);

private:
    void showNetwork(int index);
    void updateLegend();
    void updateWindow();

    std::shared_ptr<const netsim::NetworkPicture> picture_;
    NetworkCanvas* canvas_;
    QComboBox* networkBox_;
    QComboBox* metricBox_;
    QLabel* summary_;
    QLabel* legend_;
    QLabel* legendLow_;
    QLabel* legendHigh_;
    QComboBox* windowBox_;
    QSlider* from_;
    QSlider* to_;
    QLabel* windowLabel_;
    QLabel* messageTitle_;
    QTableWidget* messages_;
    std::pair<double, double> window_{0, 0};
    std::pair<double, double> timelineRange_{0, 0};
};

} // namespace rankscope
