#pragma once
// The what-if panel's "Network" section: the spec file to start from (bundled specs or
// Browse…), the editable copy of it in a tree (undo, redo, reset, "Save spec as…"), the eager
// limit, and the baseline spec ("Calibrate to this trace"). It owns these controls and the
// baseline spec: a calibration's values, overrides of the file kept apart from the edits (the
// baseline replay reads the file with them, the edited replay the file with them and the
// edits). The spec copy itself (SpecItemModel) is the panel's, read by the other sections too.
//
// The page never reads or writes files: it asks (specFileRequested, saveSpecRequested) and the
// app answers through the panel (setSpec, setSpecError).

#include "whatif/netsim/networkspec.h"

#include <QString>
#include <QStringList>
#include <QWidget>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QToolButton;
class QTreeView;

namespace rankscope {

class SpecItemModel;

class WhatIfNetworkPage : public QWidget
{
    Q_OBJECT
public:
    /// Shows and edits `specModel` (the panel's).
    explicit WhatIfNetworkPage(SpecItemModel* specModel, QWidget* parent = nullptr);
    ~WhatIfNetworkPage() override;

    /// The bundled specs offered in the spec combo, plus a "Browse…" entry.
    void setBundledSpecs(const QStringList& paths);
    /// The app read the chosen file: show it, with `overrides` as the starting edits. A file
    /// other than the one shown drops the baseline spec (it was fitted to that file).
    void setSpec(const netsim::NetworkSpec& fileSpec,
                 const std::vector<netsim::SpecOverride>& overrides);
    /// The app could not read the chosen file: show the message, keep the old spec.
    void setSpecError(const QString& message);

    /// A calibration becomes the baseline spec: one step on the spec's undo stack.
    void applyCalibration(std::vector<netsim::SpecOverride> baseline, const QString& what);
    /// Sets the baseline spec without undo (a scenario loaded, a new spec file).
    void setBaseline(std::vector<netsim::SpecOverride> baseline, const QString& what);
    const std::vector<netsim::SpecOverride>& baselineOverrides() const { return baseline_; }
    /// What the baseline was calibrated to ("saved" when loaded with a scenario); empty: none.
    const QString& baselineWhat() const { return baselineWhat_; }
    QPushButton* calibrateButton() const { return calibrate_; }
    /// "Baseline: the spec file" or "Baseline: calibrated to … (n values)".
    QLabel* baselineLabel() const { return baselineLabel_; }

signals:
    void specFileRequested(const QString& path);
    /// "Save spec as…": the app writes `spec` (the edited copy).
    void saveSpecRequested(const rankscope::netsim::NetworkSpec& spec);
    /// "Calibrate to this trace".
    void calibrateRequested();

private:
    void onSpecChosen(int index);
    void selectSpecEntry(const QString& path);
    void onEditedChanged();
    void applyEagerLimit();

    SpecItemModel* specModel_;
    QComboBox* specCombo_ = nullptr;
    QLabel* specError_ = nullptr;
    QTreeView* specTree_ = nullptr;
    QLabel* editError_ = nullptr;
    QToolButton* undo_ = nullptr;
    QToolButton* redo_ = nullptr;
    QToolButton* resetSpec_ = nullptr;
    QToolButton* saveSpec_ = nullptr;
    QLineEdit* eagerLimit_ = nullptr;
    QPushButton* calibrate_ = nullptr;
    QLabel* baselineLabel_ = nullptr;
    std::vector<netsim::SpecOverride> baseline_;
    QString baselineWhat_;
};

} // namespace rankscope
