export { createSamplePipeline, instrumentationHooks, SAMPLE_DATA_SOURCE, type SamplePipeline, type SamplePipelineOptions, type SamplePipelineVersion, type SamplePipelineHooks, type SampleReply, type TargetContext } from "./pipeline.js";
export { extractiveAnswer, injectFault, SAMPLE_ABSTENTION, FAULT_SENTENCE } from "./answer.js";
export { chunkBySection, chunkFixed, type Chunk } from "./chunking.js";
export { loadCorpus, type CorpusDocument } from "./corpus.js";
export { Bm25Retriever, type RetrievedChunk } from "./retriever.js";
export { SAMPLE_CORPUS_DIR, SAMPLE_GOLDEN_FILE } from "./paths.js";
export { startSampleServer, type SampleServer } from "./server.js";
