#!/usr/bin/env node
// The command's entry point is committed so npm links it at install time, before the first build.
import '../dist/main.js';
