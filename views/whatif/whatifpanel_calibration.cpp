// WhatIfPanel: the baseline spec ("Calibrate to this trace"). The calibration's values are
// overrides of the spec file kept apart from the edits: the baseline replay reads the file with
// them, the edited replay the file with them and the edits. Applying a calibration is one step
// on the spec's undo stack, so Undo brings back the previous baseline.

#include "views/whatif/specitemmodel.h"
#include "views/whatif/whatifpanel.h"

#include <QLabel>
#include <QUndoCommand>
#include <QUndoStack>

namespace rankscope {

class BaselineCommand : public QUndoCommand
{
public:
    BaselineCommand(WhatIfPanel* panel, std::vector<netsim::SpecOverride> after, QString what)
        : QUndoCommand(QObject::tr("calibrate to %1").arg(what)), panel_(panel),
          before_(panel->baseline_), beforeWhat_(panel->baselineWhat_), after_(std::move(after)),
          afterWhat_(std::move(what))
    {
    }
    void undo() override { panel_->setBaseline(before_, beforeWhat_); }
    void redo() override { panel_->setBaseline(after_, afterWhat_); }

private:
    WhatIfPanel* panel_;
    std::vector<netsim::SpecOverride> before_;
    QString beforeWhat_;
    std::vector<netsim::SpecOverride> after_;
    QString afterWhat_;
};

void WhatIfPanel::applyCalibration(std::vector<netsim::SpecOverride> baseline, const QString& what)
{
    specModel_->undoStack()->push(new BaselineCommand(this, std::move(baseline), what));
}

void WhatIfPanel::setBaseline(std::vector<netsim::SpecOverride> baseline, const QString& what)
{
    baseline_ = std::move(baseline);
    baselineWhat_ = what;
    if (!baselineLabel_) return;
    if (baseline_.empty()) {
        baselineLabel_->setText(tr("Baseline: the spec file"));
        baselineLabel_->setToolTip({});
        return;
    }
    baselineLabel_->setText(
        tr("Baseline: calibrated to %1 (%n value(s))", nullptr, int(baseline_.size())).arg(what));
    QString tip;
    for (const netsim::SpecOverride& o : baseline_)
        tip += QString::fromStdString(o.key + " = " + o.value) + QLatin1Char('\n');
    baselineLabel_->setToolTip(tip.trimmed());
}

} // namespace rankscope
