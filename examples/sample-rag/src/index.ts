export { extractiveAnswer, FAULT_SENTENCE, injectFault, SAMPLE_ABSTENTION } from "./answer.js";
export { type Chunk, chunkBySection, chunkFixed } from "./chunking.js";
export { type CorpusDocument, loadCorpus } from "./corpus.js";
export { SAMPLE_CORPUS_DIR, SAMPLE_GOLDEN_FILE } from "./paths.js";
export {
  createSamplePipeline,
  instrumentationHooks,
  SAMPLE_DATA_SOURCE,
  type SamplePipeline,
  type SamplePipelineHooks,
  type SamplePipelineOptions,
  type SamplePipelineVersion,
  type SampleReply,
  type TargetContext,
} from "./pipeline.js";
export { Bm25Retriever, type RetrievedChunk } from "./retriever.js";
export { type SampleServer, startSampleServer } from "./server.js";
