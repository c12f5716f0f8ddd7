// Every built-in Trainer callback, for `#include
// "accel/trainer/callbacks.h"`; each lives in its own file under accel/trainer/callbacks/.
#pragma once

#include "accel/trainer/callbacks/convert_sync_batch_norm.h"
#include "accel/trainer/callbacks/csv_logger.h"
#include "accel/trainer/callbacks/default_callbacks.h"
#include "accel/trainer/callbacks/early_stopping.h"
#include "accel/trainer/callbacks/limit_batches.h"
#include "accel/trainer/callbacks/limit_eval_steps.h"
#include "accel/trainer/callbacks/log_metrics.h"
#include "accel/trainer/callbacks/model_ema_callback.h"
#include "accel/trainer/callbacks/move_modules_to_device.h"
#include "accel/trainer/callbacks/print_progress.h"
#include "accel/trainer/callbacks/progress_bar.h"
#include "accel/trainer/callbacks/save_best_model.h"
#include "accel/trainer/callbacks/save_training_state.h"
#include "accel/trainer/callbacks/step_based_evaluation.h"
#include "accel/trainer/callbacks/stop_on_interrupt.h"
#include "accel/trainer/callbacks/tensorboard_logger.h"
#include "accel/trainer/callbacks/terminate_on_nan.h"
#include "accel/trainer/callbacks/wsd_checkpoint.h"
