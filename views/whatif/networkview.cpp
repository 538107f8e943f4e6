#include "views/whatif/networkview.h"

#include "views/panes/durationformat.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLinearGradient>
#include <QPainter>
#include <QSlider>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

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
      legendLow_(new QLabel(this)), legendHigh_(new QLabel(this)), windowBox_(new QComboBox(this)),
      from_(new QSlider(Qt::Horizontal, this)), to_(new QSlider(Qt::Horizontal, this)),
      windowLabel_(new QLabel(this)), messageTitle_(new QLabel(this)),
      messages_(new QTableWidget(this))
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
    windowBox_->setObjectName(QStringLiteral("window"));
    windowBox_->addItem(tr("Whole run"));
    windowBox_->addItem(tr("Chosen window"));
    windowBox_->addItem(tr("Timeline's visible range"));
    windowBox_->setToolTip(tr("The time the utilisation is taken over (peak utilisation and "
                              "contention delay are always the whole run's)"));
    for (QSlider* s : {from_, to_}) {
        s->setRange(0, int(netsim::LinkRecorder::kWindows));
        s->setPageStep(4);
        s->setMinimumWidth(160);
    }
    from_->setObjectName(QStringLiteral("windowFrom"));
    to_->setObjectName(QStringLiteral("windowTo"));
    from_->setToolTip(tr("Start of the window"));
    to_->setToolTip(tr("End of the window"));
    to_->setValue(to_->maximum());
    auto* windowBar = new QHBoxLayout;
    windowBar->addWidget(new QLabel(tr("Time window:"), this));
    windowBar->addWidget(windowBox_);
    windowBar->addWidget(from_);
    windowBar->addWidget(to_);
    windowBar->addWidget(windowLabel_);
    windowBar->addStretch(1);

    messageTitle_->setWordWrap(true);
    messages_->setObjectName(QStringLiteral("linkMessages"));
    messages_->setColumnCount(7);
    messages_->setHorizontalHeaderLabels({tr("Message"), tr("From"), tr("To"), tr("Size"),
                                          tr("Transfer"), tr("Waited"), tr("Link")});
    messages_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    messages_->setSelectionBehavior(QAbstractItemView::SelectRows);
    messages_->setSelectionMode(QAbstractItemView::SingleSelection);
    messages_->verticalHeader()->hide();
    messages_->setWordWrap(false); // a link's name on one line keeps the rows one line high
    messages_->horizontalHeader()->setStretchLastSection(true);
    messages_->setToolTip(tr("Choose a message to select it on the predicted timeline"));
    auto* side = new QWidget(this);
    side->setMinimumWidth(420); // the seven columns of a message readable at a glance
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(messageTitle_);
    sideLayout->addWidget(messages_, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(canvas_);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addLayout(windowBar);
    layout->addWidget(summary_);
    layout->addWidget(split, 1);

    connect(windowBox_, &QComboBox::currentIndexChanged, this, &NetworkView::updateWindow);
    connect(from_, &QSlider::valueChanged, this, [this](int v) {
        if (to_->value() <= v) to_->setValue(std::min(v + 1, to_->maximum()));
        updateWindow();
    });
    connect(to_, &QSlider::valueChanged, this, [this](int v) {
        if (from_->value() >= v) from_->setValue(std::max(v - 1, 0));
        updateWindow();
    });
    connect(canvas_, &NetworkCanvas::edgeClicked, this, &NetworkView::showEdgeMessages);
    connect(messages_, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (row < 0) return;
        if (const QTableWidgetItem* it = messages_->item(row, 0))
            emit messageChosen(it->data(Qt::UserRole).toUInt());
    });

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
    showEdgeMessages(-1);
    updateWindow();
    updateLegend();
}

void NetworkView::setTimelineRange(double fromNs, double toNs)
{
    timelineRange_ = {fromNs, toNs};
    if (WindowMode(windowBox_->currentIndex()) == WindowMode::Timeline) updateWindow();
}

void NetworkView::updateWindow()
{
    const WindowMode mode = WindowMode(windowBox_->currentIndex());
    from_->setEnabled(mode == WindowMode::Chosen);
    to_->setEnabled(mode == WindowMode::Chosen);
    const netsim::NetworkFigures* f = picture_ ? &picture_->figures : nullptr;
    if (!f || mode == WindowMode::WholeRun) {
        window_ = {0, 0};
        windowLabel_->setText(f ? tr("utilisation over the run (%1)").arg(formatDuration(f->runNs))
                                : QString());
        canvas_->setWindowLoads({});
        return;
    }
    window_ = mode == WindowMode::Chosen ? std::pair{f->originNs + from_->value() * f->windowNs,
                                                     f->originNs + to_->value() * f->windowNs}
                                         : timelineRange_;
    windowLabel_->setText(tr("utilisation from %1 to %2 after the run's start")
                              .arg(formatDuration(window_.first - f->originNs),
                                   formatDuration(window_.second - f->originNs)));
    canvas_->setWindowLoads(f->utilisationBetween(window_.first, window_.second));
}

void NetworkView::showEdgeMessages(int edge)
{
    messages_->setRowCount(0);
    const netsim::NetworkLayout* l = canvas_->layout();
    if (canvas_->selectedEdge() != edge) canvas_->setSelectedEdge(edge);
    if (!picture_ || !l || edge < 0 || size_t(edge) >= l->edges.size()) {
        messageTitle_->setText(tr("Click a link to list its heaviest messages."));
        return;
    }
    const netsim::NetworkFigures& f = picture_->figures;
    const netsim::LayoutEdge& e = l->edges[size_t(edge)];
    // Both directions' lists (every direction of a group's edge), merged heaviest first, a
    // message crossing two of them listed once, at most kListed rows.
    constexpr size_t kListed = 50;
    std::vector<std::pair<netsim::LinkMessage, uint32_t>> rows;
    const std::vector<uint32_t> dirs =
        e.links.empty() ? std::vector<uint32_t>{e.forward, e.backward} : e.links;
    for (uint32_t k : dirs)
        if (k < f.heaviest.size())
            for (const netsim::LinkMessage& m : f.heaviest[k])
                rows.emplace_back(m, k);
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        if (a.first.bytes != b.first.bytes) return a.first.bytes > b.first.bytes;
        if (a.first.contentionNs != b.first.contentionNs)
            return a.first.contentionNs > b.first.contentionNs;
        return a.first.message < b.first.message;
    });
    rows.erase(std::unique(
                   rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.first.message == b.first.message; }),
               rows.end());
    if (rows.size() > kListed) rows.resize(kListed);
    const QString name =
        !e.links.empty()
            ? QStringLiteral("%1 - %2").arg(QString::fromStdString(l->vertices[e.a].name),
                                            QString::fromStdString(l->vertices[e.b].name))
        : e.forward < f.links.size() ? QString::fromStdString(f.links[e.forward].info.name)
                                     : QString();
    messageTitle_->setText(
        f.heaviest.empty() ? tr("%1: this result did not list messages per link.").arg(name)
        : rows.empty()     ? tr("%1 and back: no point-to-point message crossed it.").arg(name)
                           : tr("Heaviest messages on %1 and back (most bytes first):").arg(name));
    const QSignalBlocker block(messages_);
    messages_->setRowCount(int(rows.size()));
    for (size_t r = 0; r < rows.size(); ++r) {
        const netsim::LinkMessage& m = rows[r].first;
        const QStringList cells = {QString::number(m.message),
                                   QString::number(m.src),
                                   QString::number(m.dst),
                                   formatBytes(m.bytes),
                                   formatDuration(m.transferNs),
                                   formatDuration(m.contentionNs),
                                   QString::fromStdString(f.links[rows[r].second].info.name)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* it = new QTableWidgetItem(cells[c]);
            if (c == 0) it->setData(Qt::UserRole, m.message);
            messages_->setItem(int(r), c, it);
        }
    }
    messages_->resizeColumnsToContents();
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
