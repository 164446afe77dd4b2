// Placeholder until the model loader lands.
#include <cerrno>

#include "core/model.h"

namespace vmafhip {

int Model::load(const ModelSpec &, const std::function<std::string(const std::string &)> &,
                std::unique_ptr<Model> *, std::string *msg)
{
    *msg = "models are not available";
    return -ENOTSUP;
}

const std::vector<std::string> &builtin_models()
{
    static const std::vector<std::string> none;
    return none;
}

} // namespace vmafhip
