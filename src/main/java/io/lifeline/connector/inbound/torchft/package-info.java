/**
 * TorchFT (pytorch/torchft) as a source: the quorum its Lighthouse forms of a self-healing job's replica groups, read
 * from the Lighthouse's status page and turned into the job's membership ({@code trainer.rendezvous}).
 */
package io.lifeline.connector.inbound.torchft;
