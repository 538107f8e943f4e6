#pragma once
// The network view of a replay result: the simulated network drawn (NetworkCanvas) with a
// choice of network (when the spec has several) and of what colours the links (utilisation over
// the run, peak utilisation over a time window, or contention delay), a colour legend, and a
// summary line (total contention delay, the hottest links).

#include "views/whatif/networkcanvas.h"

#include <QWidget>
#include <memory>

class QComboBox;
class QLabel;

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

private:
    void showNetwork(int index);
    void updateLegend();

    std::shared_ptr<const netsim::NetworkPicture> picture_;
    NetworkCanvas* canvas_;
    QComboBox* networkBox_;
    QComboBox* metricBox_;
    QLabel* summary_;
    QLabel* legend_;
    QLabel* legendLow_;
    QLabel* legendHigh_;
};

} // namespace rankscope
