/* augur_model — weighted least squares and the inverse square root. */
#include "model_int.h"
