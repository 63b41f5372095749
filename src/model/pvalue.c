/* augur_model — p-values: chi^2 and supLM. */
#include "model_int.h"
