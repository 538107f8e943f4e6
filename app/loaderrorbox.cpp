#include "app/loaderrorbox.h"

#include <QMessageBox>
#include <QPushButton>
#include <QWidget>
#include <utility>

namespace rankscope {

LoadErrorBox::LoadErrorBox(QWidget* window) : QObject(window), window_(window) {}

void LoadErrorBox::report(const QString& path, const QString& text)
{
    const bool offer = !partialRun_.remove(path);
    if (!box_) {
        // Non-modal: loading continues and tests can find and close the box.
        box_ = new QMessageBox(QMessageBox::Warning, tr("Cannot open trace"), text, QMessageBox::Ok,
                               window_);
        box_->setObjectName(QStringLiteral("errorBox"));
        box_->setAttribute(Qt::WA_DeleteOnClose);
        QPushButton* partial = box_->addButton(tr("Open &Partially"), QMessageBox::ActionRole);
        partial->setObjectName(QStringLiteral("openPartiallyButton"));
        partial->setToolTip(tr("Read what the damaged files still hold, as --allow-partial does; "
                               "each opens marked partial, with what was lost in its warnings"));
        partial->setVisible(false);
        connect(partial, &QPushButton::clicked, this, [this] {
            for (const QString& p : std::exchange(offered_, {})) {
                partialRun_.insert(p);
                emit openPartially(p);
            }
        });
        offered_.clear();
        box_->open();
    } else {
        box_->setText(box_->text() + QStringLiteral("\n\n") + text);
    }
    if (offer) {
        offered_.append(path);
        box_->findChild<QPushButton*>(QStringLiteral("openPartiallyButton"))->setVisible(true);
    }
}

} // namespace rankscope
