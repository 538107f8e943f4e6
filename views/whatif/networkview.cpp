#include "views/whatif/networkview.h"

#include "views/panes/durationformat.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLinearGradient>
#include <QPainter>
#include <QVBoxLayout>

namespace rankscope {

namespace {

QPixmap legendBar(int width, int height)
{
    QPixmap bar(width, height);
    QPainter p(&bar);
    for (int x = 0; x < width; ++x) {
        const netsim::Rgb c = netsim::loadColour(width > 1 ? double(x) / (width - 1) : 1.0);
        p.setPen(QColor(c.r, c.g, c.b));
        p.drawLine(x, 0, x, height - 1);
    }
    return bar;
}

} // namespace

NetworkView::NetworkView(QWidget* parent)
    : QWidget(parent), canvas_(new NetworkCanvas(this)), networkBox_(new QComboBox(this)),
      metricBox_(new QComboBox(this)), summary_(new QLabel(this)), legend_(new QLabel(this)),
      legendLow_(new QLabel(this)), legendHigh_(new QLabel(this))
{
    networkBox_->setObjectName(QStringLiteral("network"));
    networkBox_->setToolTip(tr("Which of the spec's networks to draw"));
    metricBox_->setObjectName(QStringLiteral("metric"));
    metricBox_->addItem(tr("Utilisation over the run"), int(NetworkCanvas::Metric::Utilisation));
    metricBox_->addItem(tr("Peak utilisation (busiest time window)"),
                        int(NetworkCanvas::Metric::PeakUtilisation));
    metricBox_->addItem(tr("Contention delay (time messages waited)"),
                        int(NetworkCanvas::Metric::Contention));
    metricBox_->setToolTip(tr("What colours and widens the links; a link shows the busier of "
                              "its two directions"));
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setWordWrap(true);
    legend_->setPixmap(legendBar(160, 12));
    legend_->setToolTip(tr("Grey: the link carried nothing"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Network:"), this));
    bar->addWidget(networkBox_);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Colour by:"), this));
    bar->addWidget(metricBox_);
    bar->addSpacing(12);
    bar->addWidget(legendLow_);
    bar->addWidget(legend_);
    bar->addWidget(legendHigh_);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addWidget(summary_);
    layout->addWidget(canvas_, 1);

    connect(networkBox_, &QComboBox::currentIndexChanged, this, &NetworkView::showNetwork);
    connect(metricBox_, &QComboBox::currentIndexChanged, this, [this] {
        canvas_->setMetric(NetworkCanvas::Metric(metricBox_->currentData().toInt()));
        updateLegend();
    });
    setPicture(nullptr);
}

void NetworkView::setPicture(std::shared_ptr<const netsim::NetworkPicture> picture)
{
    picture_ = std::move(picture);
    {
        const QSignalBlocker block(networkBox_);
        networkBox_->clear();
        if (picture_)
            for (const netsim::NetworkLayout& l : picture_->layouts)
                networkBox_->addItem(QStringLiteral("%1 (%2)").arg(
                    QString::fromStdString(l.network), QString::fromStdString(l.topology)));
    }
    networkBox_->setEnabled(networkBox_->count() > 1);
    if (!picture_) {
        summary_->setText(tr("No link figures for this result (a replay collects them)."));
    } else {
        const netsim::NetworkFigures& f = picture_->figures;
        QStringList hot;
        for (size_t i : f.hottest(3))
            if (f.links[i].contentionNs > 0 || f.links[i].utilisation > 0)
                hot << tr("%1 (%2 waited, %3 % busy)")
                           .arg(QString::fromStdString(f.links[i].info.name),
                                formatDuration(f.links[i].contentionNs))
                           .arg(100 * f.links[i].utilisation, 0, 'f', 1);
        summary_->setText(
            tr("Messages waited %1 for links in all over a run of %2 (peak utilisation over "
               "windows of %3). Hottest: %4")
                .arg(formatDuration(f.contentionNs), formatDuration(f.runNs),
                     formatDuration(f.windowNs),
                     hot.isEmpty() ? tr("none (nothing waited)") : hot.join(QStringLiteral("; "))));
    }
    showNetwork(picture_ && !picture_->layouts.empty() ? 0 : -1);
}

void NetworkView::showNetwork(int index)
{
    canvas_->setPicture(picture_, index);
    updateLegend();
}

void NetworkView::updateLegend()
{
    const bool contention = NetworkCanvas::Metric(metricBox_->currentData().toInt()) ==
                            NetworkCanvas::Metric::Contention;
    legendLow_->setText(QStringLiteral("0"));
    legendHigh_->setText(contention ? formatDuration(canvas_->maxContentionNs())
                                    : QStringLiteral("100 %"));
}

} // namespace rankscope
