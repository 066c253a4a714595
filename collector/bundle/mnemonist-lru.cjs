// Stands in for `mnemonist` in the collector's bundle (collector/bundle/build.mjs): @platformatic/kafka
// (dist/protocol/murmur2.js) imports only its LRUCache, but `import { LRUCache } from "mnemonist"`
// loads every mnemonist structure. This module gives that one class, from mnemonist itself.
module.exports = { LRUCache: require("mnemonist/lru-cache.js") };
