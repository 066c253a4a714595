# Serves one GGUF model with xllamacpp's embedded llama.cpp server (OpenAI-style /v1/chat/completions,
# /health) on 127.0.0.1 until SIGTERM or SIGINT. Started by scripts/local-model/local-model.mjs.
#   python serve.py MODEL_FILE ALIAS PORT CTX THREADS
import signal
import sys
import threading

import xllamacpp as xlc

model, alias, port, ctx, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
params = xlc.CommonParams()
params.model.path = model
params.model_alias = {alias}
params.hostnames = ["127.0.0.1"]
params.port = port
params.n_ctx = ctx
params.n_parallel = 1
params.cpuparams.n_threads = threads
params.cpuparams_batch.n_threads = threads
params.use_jinja = True
params.ui = False
params.warmup = False
server = xlc.Server(params)
print(f"listening {server.listening_address}", flush=True)
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
signal.signal(signal.SIGINT, lambda *_: stop.set())
while not stop.wait(1):
    pass
