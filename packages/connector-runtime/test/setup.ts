// A setup file of this package's and service-pages' vitest configs (run for each test file): the
// scratch SQLite folder of the file's tests goes once they are done (support/scratch.ts).
import { afterAll } from "vitest"
import { removeScratchFolder } from "./support/scratch.js"

afterAll(removeScratchFolder)
