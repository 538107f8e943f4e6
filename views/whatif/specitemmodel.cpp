#include "views/whatif/specitemmodel.h"

#include "views/whatif/specitemmodel_p.h"
#include "whatif/scenario/scenario.h"

#include <QApplication>
#include <QFileInfo>
#include <QFont>
#include <QStyle>
#include <QUndoCommand>
#include <QUndoStack>
#include <algorithm>

namespace rankscope {

using namespace specmodel;

// One row of the tree: a group (a key prefix, with children) or a leaf (a scalar of the spec).
struct SpecItemModel::Node
{
    std::string name; ///< the last key component
    std::string key;  ///< the full key path
    bool leaf = false;
    Node* parent = nullptr;
    int row = 0;
    std::vector<std::unique_ptr<Node>> children;

    Node* child(const std::string& childName) const
    {
        for (const auto& c : children)
            if (c->name == childName) return c.get();
        return nullptr;
    }
};

// Switches between two checked override lists (the specs read with them are kept, so undo and
// redo never re-read).
class SpecItemModel::EditCommand : public QUndoCommand
{
public:
    EditCommand(SpecItemModel* model, const QString& text,
                std::vector<netsim::SpecOverride> afterOverrides, netsim::NetworkSpec afterSpec)
        : QUndoCommand(text), model_(model), beforeOverrides_(model->overrides_),
          beforeSpec_(model->edited_), afterOverrides_(std::move(afterOverrides)),
          afterSpec_(std::move(afterSpec))
    {
    }
    void redo() override { model_->apply(afterOverrides_, afterSpec_); }
    void undo() override { model_->apply(beforeOverrides_, beforeSpec_); }

private:
    SpecItemModel* model_;
    std::vector<netsim::SpecOverride> beforeOverrides_;
    netsim::NetworkSpec beforeSpec_;
    std::vector<netsim::SpecOverride> afterOverrides_;
    netsim::NetworkSpec afterSpec_;
};

SpecItemModel::SpecItemModel(QObject* parent)
    : QAbstractItemModel(parent), root_(std::make_unique<Node>()), undo_(new QUndoStack(this))
{
}

SpecItemModel::~SpecItemModel()
{
    // The commands call back into this model; drop them before the members they touch.
    undo_->clear();
}

void SpecItemModel::setSpec(const netsim::NetworkSpec& fileSpec,
                            std::vector<netsim::SpecOverride> overrides)
{
    undo_->clear();
    file_ = fileSpec;
    hasSpec_ = true;
    fileValues_ = file_.overridableKeys();
    // Keep the edits the spec accepts, in order; say which were dropped.
    std::vector<netsim::SpecOverride> kept;
    QStringList dropped;
    netsim::NetworkSpec spec = file_;
    for (const netsim::SpecOverride& o : overrides) {
        std::vector<netsim::SpecOverride> trial = kept;
        whatif::setOverride(trial, o);
        netsim::NetworkSpec read;
        QString error;
        if (tryRead(trial, read, &error)) {
            kept = std::move(trial);
            spec = std::move(read);
        } else {
            dropped << error;
        }
    }
    beginResetModel();
    overrides_ = std::move(kept);
    edited_ = std::move(spec);
    editedValues_ = edited_.overridableKeys();
    rebuild();
    endResetModel();
    emit editedChanged();
    for (const QString& message : dropped)
        emit editRejected(message);
}

bool SpecItemModel::tryRead(const std::vector<netsim::SpecOverride>& overrides,
                            netsim::NetworkSpec& out, QString* error) const
{
    if (overrides.empty() && baseline_.empty()) {
        out = file_;
        return true;
    }
    try {
        std::vector<netsim::SpecOverride> all = baseline_;
        all.insert(all.end(), overrides.begin(), overrides.end());
        out = file_.withOverrides(all);
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

bool SpecItemModel::setValue(const std::string& key, const std::string& value, QString* error)
{
    const auto reject = [&](const QString& message) {
        if (error) *error = message;
        emit editRejected(message);
        return false;
    };
    if (!hasSpec_) return reject(tr("No network spec is loaded"));
    if (key.empty()) return reject(tr("No key given (e.g. links.wan.latency)"));

    const auto edit = std::find_if(overrides_.begin(), overrides_.end(),
                                   [&](const netsim::SpecOverride& o) { return o.key == key; });
    const bool inFile = std::any_of(fileValues_.begin(), fileValues_.end(),
                                    [&](const auto& kv) { return kv.first == key; });
    if (edit != overrides_.end() ? edit->value == value : inFile && fileValue(key) == value) {
        if (error) error->clear();
        return true; // nothing changes: no undo step
    }
    std::vector<netsim::SpecOverride> next = overrides_;
    QString text;
    if (inFile && fileValue(key) == value) {
        // Back to the file's value: the edit goes away rather than repeating the file.
        next.erase(next.begin() + (edit - overrides_.begin()));
        text = tr("Reset %1").arg(QString::fromStdString(key));
    } else {
        whatif::setOverride(next, netsim::SpecOverride{key, value});
        text = tr("Set %1 = %2").arg(QString::fromStdString(key), QString::fromStdString(value));
    }
    netsim::NetworkSpec spec;
    QString message;
    if (!tryRead(next, spec, &message)) return reject(message);
    if (error) error->clear();
    push(text, std::move(next), std::move(spec));
    return true;
}

void SpecItemModel::resetKey(const std::string& key)
{
    std::vector<netsim::SpecOverride> next = overrides_;
    const auto removed = std::remove_if(
        next.begin(), next.end(), [&](const netsim::SpecOverride& o) { return o.key == key; });
    if (removed == next.end()) return;
    next.erase(removed, next.end());
    netsim::NetworkSpec spec;
    QString message;
    // A later edit may need this one (it created the map the later one sets a key in).
    if (!tryRead(next, spec, &message)) {
        emit editRejected(message);
        return;
    }
    push(tr("Reset %1").arg(QString::fromStdString(key)), std::move(next), std::move(spec));
}

void SpecItemModel::resetAll()
{
    if (overrides_.empty()) return;
    push(tr("Reset all edits"), {}, file_);
}

void SpecItemModel::push(const QString& text, std::vector<netsim::SpecOverride> overrides,
                         netsim::NetworkSpec spec)
{
    undo_->push(new EditCommand(this, text, std::move(overrides), std::move(spec))); // runs redo()
}

void SpecItemModel::apply(std::vector<netsim::SpecOverride> overrides, netsim::NetworkSpec spec)
{
    overrides_ = std::move(overrides);
    edited_ = std::move(spec);
    auto values = edited_.overridableKeys();
    const bool sameKeys =
        std::equal(values.begin(), values.end(), editedValues_.begin(), editedValues_.end(),
                   [](const auto& a, const auto& b) { return a.first == b.first; });
    if (sameKeys) {
        // Only values changed: keep the rows (and the view's expansion and current item).
        editedValues_ = std::move(values);
        std::vector<Node*> stack{root_.get()};
        while (!stack.empty()) {
            Node* n = stack.back();
            stack.pop_back();
            if (n->children.empty()) continue;
            const QModelIndex parent = n == root_.get() ? QModelIndex() : createIndex(n->row, 0, n);
            emit dataChanged(index(0, 0, parent),
                             index(int(n->children.size()) - 1, ColumnCount - 1, parent));
            for (const auto& c : n->children)
                stack.push_back(c.get());
        }
    } else {
        beginResetModel();
        editedValues_ = std::move(values);
        rebuild();
        endResetModel();
    }
    emit editedChanged();
}

void SpecItemModel::rebuild()
{
    root_ = std::make_unique<Node>();
    for (const auto& [key, value] : editedValues_) {
        Node* at = root_.get();
        std::string path;
        const std::vector<std::string> parts = splitKey(key);
        for (size_t i = 0; i < parts.size(); ++i) {
            path += (path.empty() ? "" : ".") + parts[i];
            Node* next = at->child(parts[i]);
            if (!next) {
                auto n = std::make_unique<Node>();
                n->name = parts[i];
                n->key = path;
                n->parent = at;
                n->row = int(at->children.size());
                next = n.get();
                at->children.push_back(std::move(n));
            }
            at = next;
        }
        at->leaf = true;
    }
}

std::string SpecItemModel::value(const std::string& key) const
{
    for (const auto& [k, v] : editedValues_)
        if (k == key) return v;
    return {};
}

std::string SpecItemModel::fileValue(const std::string& key) const
{
    for (const auto& [k, v] : fileValues_)
        if (k == key) return v;
    return {};
}

void SpecItemModel::setBaseline(std::vector<netsim::SpecOverride> baseline)
{
    if (baseline == baseline_) return;
    const std::vector<netsim::SpecOverride> before = std::move(baseline_);
    baseline_ = std::move(baseline);
    netsim::NetworkSpec spec;
    QString error;
    if (!tryRead(overrides_, spec, &error)) {
        baseline_ = before;
        emit editRejected(error);
        return;
    }
    beginResetModel();
    edited_ = std::move(spec);
    editedValues_ = edited_.overridableKeys();
    rebuild();
    endResetModel();
    emit editedChanged();
}

void SpecItemModel::setEditWarnings(std::vector<std::pair<std::string, std::string>> warnings)
{
    warnings_ = std::move(warnings);
    if (root_ && rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

QString SpecItemModel::editWarning(const std::string& key) const
{
    for (const auto& [k, why] : warnings_)
        if (k == key) return QString::fromStdString(why);
    return {};
}

bool SpecItemModel::isEdited(const std::string& key) const
{
    for (const netsim::SpecOverride& o : overrides_)
        if (o.key == key) return true;
    for (const netsim::SpecOverride& o : baseline_)
        if (o.key == key) return true;
    const bool inFile = std::any_of(fileValues_.begin(), fileValues_.end(),
                                    [&](const auto& kv) { return kv.first == key; });
    return !inFile || fileValue(key) != value(key);
}

QModelIndex SpecItemModel::indexOfKey(const std::string& key) const
{
    Node* at = root_.get();
    for (const std::string& part : splitKey(key)) {
        at = at->child(part);
        if (!at) return {};
    }
    if (!at->leaf) return {};
    return createIndex(at->row, ValueColumn, at);
}

SpecItemModel::Node* SpecItemModel::node(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<Node*>(index.internalPointer()) : root_.get();
}

QModelIndex SpecItemModel::index(int row, int column, const QModelIndex& parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0 || parent.column() > 0) return {};
    const Node* p = node(parent);
    if (size_t(row) >= p->children.size()) return {};
    return createIndex(row, column, p->children[size_t(row)].get());
}

QModelIndex SpecItemModel::parent(const QModelIndex& child) const
{
    if (!child.isValid()) return {};
    Node* p = node(child)->parent;
    if (!p || p == root_.get()) return {};
    return createIndex(p->row, 0, p);
}

int SpecItemModel::rowCount(const QModelIndex& parent) const
{
    if (parent.column() > 0) return 0;
    return int(node(parent)->children.size());
}

int SpecItemModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant SpecItemModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()) return {};
    const Node* n = node(index);
    const QString key = QString::fromStdString(n->key);
    if (!n->leaf) {
        if (index.column() == KeyColumn && role == Qt::DisplayRole)
            return QString::fromStdString(n->name);
        if (role == Qt::ToolTipRole) {
            const QString help = describeKey(n->key);
            return help.isEmpty() ? key : help;
        }
        return {};
    }
    const bool edited = isEdited(n->key);
    const bool inFile = std::any_of(fileValues_.begin(), fileValues_.end(),
                                    [&](const auto& kv) { return kv.first == n->key; });
    switch (role) {
    case KeyRole:
        return key;
    case EditedRole:
        return edited;
    case SuggestionsRole:
        return suggestions(n->key);
    case Qt::FontRole:
        if (edited && index.column() != FileValueColumn) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (index.column()) {
        case KeyColumn:
            return QString::fromStdString(n->name);
        case ValueColumn:
            return QString::fromStdString(value(n->key));
        case FileValueColumn:
            if (role == Qt::EditRole) return QString::fromStdString(fileValue(n->key));
            return inFile ? QString::fromStdString(fileValue(n->key)) : QStringLiteral("—");
        }
        return {};
    case Qt::DecorationRole:
        if (index.column() == ValueColumn && !editWarning(n->key).isEmpty())
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
        return {};
    case Qt::ToolTipRole: {
        if (index.column() == ValueColumn && edited) {
            const bool calibrated =
                std::any_of(baseline_.begin(), baseline_.end(),
                            [&](const netsim::SpecOverride& o) { return o.key == n->key; }) &&
                std::none_of(overrides_.begin(), overrides_.end(),
                             [&](const netsim::SpecOverride& o) { return o.key == n->key; });
            QString tip =
                inFile ? (calibrated ? tr("calibrated; in file: %1") : tr("edited; in file: %1"))
                             .arg(QString::fromStdString(fileValue(n->key)))
                       : (calibrated ? tr("calibrated; not in the file")
                                     : tr("edited; not in the file"));
            if (const QString w = editWarning(n->key); !w.isEmpty())
                tip += QStringLiteral("\n") + tr("Warning: %1").arg(w);
            return tip;
        }
        if (index.column() == FileValueColumn)
            return inFile ? tr("%1 in %2")
                                .arg(QString::fromStdString(fileValue(n->key)),
                                     QFileInfo(QString::fromStdString(file_.source)).fileName())
                          : tr("Not in the file: added by an edit");
        const QString help = describeKey(n->key);
        const QString tip = help.isEmpty() ? key : help + QStringLiteral("\n(") + key + ')';
        return index.column() == ValueColumn ? tip + tr("\nDouble-click or F2 to edit") : tip;
    }
    default:
        return {};
    }
}

bool SpecItemModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || role != Qt::EditRole || index.column() != ValueColumn) return false;
    const Node* n = node(index);
    if (!n->leaf) return false;
    return setValue(n->key, value.toString().trimmed().toStdString());
}

Qt::ItemFlags SpecItemModel::flags(const QModelIndex& index) const
{
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == ValueColumn && node(index)->leaf) f |= Qt::ItemIsEditable;
    if (!node(index)->children.empty()) return f;
    return f | Qt::ItemNeverHasChildren;
}

QVariant SpecItemModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case KeyColumn:
            return tr("Key");
        case ValueColumn:
            return tr("Value");
        case FileValueColumn:
            return tr("In file");
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
        case KeyColumn:
            return tr("The spec's keys, grouped by path (links > wan > latency)");
        case ValueColumn:
            return tr("The value the what-if run uses; edits (bold) change only this copy, "
                      "never the file");
        case FileValueColumn:
            return tr("The value in the spec file");
        }
    }
    return {};
}

} // namespace rankscope
